import { describe, expect, it } from 'vitest';
import { cronProblem, nextOccurrence } from './schedule-timing.js';

const next = (timing: Parameters<typeof nextOccurrence>[0], tz: string, after: string) =>
  nextOccurrence(timing, tz, new Date(after)).toISOString();

describe('schedule timing', () => {
  it('fires hourly at the minute, strictly after the given instant', () => {
    const hourly = { frequency: 'hourly' as const, minute: 15 };
    expect(next(hourly, 'UTC', '2026-05-01T10:00:00Z')).toBe('2026-05-01T10:15:00.000Z');
    expect(next(hourly, 'UTC', '2026-05-01T10:15:00Z')).toBe('2026-05-01T11:15:00.000Z');
    // a zone half an hour off UTC: 15 past the local hour is 45 past the UTC hour
    expect(next(hourly, 'Asia/Kolkata', '2026-05-01T10:00:00Z')).toBe('2026-05-01T10:45:00.000Z');
  });

  it('keeps daily wall-clock time across daylight saving changes', () => {
    const daily = { frequency: 'daily' as const, time: '09:00' };
    expect(next(daily, 'Europe/London', '2026-03-28T09:00:00Z')).toBe('2026-03-29T08:00:00.000Z');
    expect(next(daily, 'Europe/London', '2026-03-29T08:00:00Z')).toBe('2026-03-30T08:00:00.000Z');
    expect(next(daily, 'Europe/London', '2026-10-24T08:00:00Z')).toBe('2026-10-25T09:00:00.000Z');
    expect(next(daily, 'America/New_York', '2026-03-07T14:00:00Z')).toBe('2026-03-08T13:00:00.000Z');
  });

  it('fires a skipped local time once, an hour later, and a repeated one once', () => {
    const early = { frequency: 'daily' as const, time: '01:30' };
    // 29 March 2026: London skips 01:00–02:00
    expect(next(early, 'Europe/London', '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
    // 25 October 2026: 01:30 happens twice in London; the schedule fires at the first
    const first = next(early, 'Europe/London', '2026-10-24T12:00:00Z');
    expect(first).toBe('2026-10-25T00:30:00.000Z');
    expect(next(early, 'Europe/London', first)).toBe('2026-10-26T01:30:00.000Z');
  });

  it('fires weekly on the day and time in the zone', () => {
    const weekly = { frequency: 'weekly' as const, time: '18:30', dayOfWeek: 5 };
    // Friday 18:30 in Tokyo is 09:30 UTC the same day
    expect(next(weekly, 'Asia/Tokyo', '2026-05-04T00:00:00Z')).toBe('2026-05-08T09:30:00.000Z');
    expect(next(weekly, 'Asia/Tokyo', '2026-05-08T09:30:00Z')).toBe('2026-05-15T09:30:00.000Z');
  });

  it('follows cron expressions and names what is wrong with bad ones', () => {
    expect(next({ frequency: 'cron', cron: '*/20 9-10 * * 1-5' }, 'UTC', '2026-05-01T10:41:00Z')).toBe(
      '2026-05-04T09:00:00.000Z',
    );
    expect(cronProblem('0 9 * * 1')).toBeNull();
    expect(cronProblem('0 9 * *')).toContain('five fields');
    expect(cronProblem('0 0 9 * * 1')).toContain('five fields');
    expect(cronProblem('61 * * * *')).toBe(
      'Cron expression is not valid: Constraint error, got value 61 expected range 0-59',
    );
  });
});
