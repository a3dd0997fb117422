import { describe, expect, it } from 'vitest';
import {
  clampTourStep,
  defaultRuntimeSettings,
  listQuerySchema,
  lookupLanguage,
  runtimeSettingsSchema,
  shouldOpenTour,
  tourStepFromServerStep,
} from './index.js';

describe('runtime settings', () => {
  it('defaults every service to disabled', () => {
    expect(defaultRuntimeSettings.heapAnalytics.enabled).toBe(false);
    expect(defaultRuntimeSettings.sentry.enabled).toBe(false);
    expect(defaultRuntimeSettings.unleash.enabled).toBe(false);
  });
  it('fills missing fields of a partial document', () => {
    const s = runtimeSettingsSchema.parse({ sentry: { enabled: true, dsn: 'https://k@sentry.local/1' } });
    expect(s.sentry).toEqual({ enabled: true, dsn: 'https://k@sentry.local/1', environment: 'production' });
    expect(s.unleash.refreshInterval).toBe(15);
  });
  it('rejects a wrongly typed flag, naming the path', () => {
    const r = runtimeSettingsSchema.safeParse({ heapAnalytics: { enabled: 'yes' } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['heapAnalytics', 'enabled']);
  });
});

describe('tour maths', () => {
  it('maps the server step to the tour step', () => {
    expect(tourStepFromServerStep(0)).toBe(0);
    expect(tourStepFromServerStep(4)).toBe(0);
    expect(tourStepFromServerStep(27)).toBe(23);
  });
  it('opens at step 4 while onboarding is in progress', () => {
    expect(shouldOpenTour(3, true)).toBe(false);
    expect(shouldOpenTour(4, true)).toBe(true);
    expect(shouldOpenTour(10, false)).toBe(false);
  });
  it('clamps the step index', () => {
    expect(clampTourStep(-1, 14)).toBe(0);
    expect(clampTourStep(20, 14)).toBe(13);
  });
});

describe('list query convention', () => {
  it('applies the defaults', () => {
    expect(listQuerySchema.parse({})).toEqual({ _start: 0, _end: 10, _sort: 'id', _order: 'ASC' });
  });
  it('coerces strings and upper-cases the order', () => {
    expect(listQuerySchema.parse({ _start: '0', _end: '12', _order: 'desc' })._order).toBe('DESC');
  });
  it('rejects an inverted window', () => {
    expect(listQuerySchema.safeParse({ _start: 5, _end: 1 }).success).toBe(false);
  });
});

describe('language lookup', () => {
  it('finds the five languages and falls back to English', () => {
    expect(lookupLanguage('ar').dir).toBe('rtl');
    expect(lookupLanguage('hn').code).toBe('hn');
    expect(lookupLanguage('de').code).toBe('en');
  });
});
