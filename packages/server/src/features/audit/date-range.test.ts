import { DATE_RANGE_PRESETS } from '@slipway/contracts';
import { describe, expect, it } from 'vitest';
import { dateRange, monthsBefore } from './date-range.js';

const iso = (w: { from: Date; to: Date }) => [w.from.toISOString(), w.to.toISOString()];
const now = new Date('2025-05-31T13:45:00.000Z');

describe('dateRange', () => {
  it('last 7 days ends now and starts seven days before', () => {
    expect(iso(dateRange('last_7_days', now))).toEqual([
      '2025-05-24T13:45:00.000Z',
      '2025-05-31T13:45:00.000Z',
    ]);
  });

  it('this month starts on the 1st at midnight UTC', () => {
    expect(iso(dateRange('this_month', now))).toEqual([
      '2025-05-01T00:00:00.000Z',
      '2025-05-31T13:45:00.000Z',
    ]);
  });

  it('last month is the whole previous calendar month', () => {
    expect(iso(dateRange('last_month', now))).toEqual([
      '2025-04-01T00:00:00.000Z',
      '2025-05-01T00:00:00.000Z',
    ]);
    expect(iso(dateRange('last_month', new Date('2025-01-15T00:00:00Z')))).toEqual([
      '2024-12-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
    ]);
    expect(iso(dateRange('last_month', new Date('2024-03-01T00:00:00Z')))).toEqual([
      '2024-02-01T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ]);
  });

  it('last 3 and 6 months clamp the day to the shorter month', () => {
    expect(iso(dateRange('last_3_months', now))).toEqual([
      '2025-02-28T13:45:00.000Z',
      '2025-05-31T13:45:00.000Z',
    ]);
    expect(iso(dateRange('last_6_months', now))).toEqual([
      '2024-11-30T13:45:00.000Z',
      '2025-05-31T13:45:00.000Z',
    ]);
    expect(monthsBefore(new Date('2024-05-31T00:00:00Z'), 3).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(monthsBefore(new Date('2025-02-10T08:00:00Z'), 3).toISOString()).toBe('2024-11-10T08:00:00.000Z');
  });

  it('this year starts on 1 January UTC', () => {
    expect(iso(dateRange('this_year', now))).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-05-31T13:45:00.000Z',
    ]);
  });

  it('every preset gives from before to', () => {
    for (const preset of DATE_RANGE_PRESETS) {
      const w = dateRange(preset, new Date('2025-01-01T00:00:00.001Z'));
      expect(w.from.getTime()).toBeLessThan(w.to.getTime());
    }
  });
});
