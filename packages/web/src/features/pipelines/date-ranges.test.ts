import { describe, expect, it } from 'vitest';
import { dateRangeOf, dateRangeParams, DATE_RANGE_PRESETS } from './date-ranges';

const local = (y: number, m: number, d: number, h = 0) => new Date(y, m, d, h);

describe('date range presets', () => {
  it('has the spec presets in its order', () => {
    expect(DATE_RANGE_PRESETS).toEqual([
      'last7Days',
      'thisMonth',
      'lastMonth',
      'last3Months',
      'thisYear',
      'last6Months',
    ]);
  });

  it('computes each range from now, in local time', () => {
    const now = local(2025, 4, 31, 15); // 31 May 2025, 15:00
    expect(dateRangeOf('last7Days', now)).toEqual({ from: local(2025, 4, 24, 15) });
    expect(dateRangeOf('thisMonth', now)).toEqual({ from: local(2025, 4, 1) });
    expect(dateRangeOf('lastMonth', now)).toEqual({ from: local(2025, 3, 1), to: local(2025, 4, 1) });
    // 31 May minus 3 months: 28 February (no 31st)
    expect(dateRangeOf('last3Months', now)).toEqual({ from: local(2025, 1, 28, 15) });
    expect(dateRangeOf('thisYear', now)).toEqual({ from: local(2025, 0, 1) });
    expect(dateRangeOf('last6Months', now)).toEqual({ from: local(2024, 10, 30, 15) });
  });

  it('crosses the year for last month in January', () => {
    expect(dateRangeOf('lastMonth', local(2026, 0, 10))).toEqual({
      from: local(2025, 11, 1),
      to: local(2026, 0, 1),
    });
  });

  it('gives the query params, none for all time', () => {
    const now = local(2025, 4, 31, 15);
    expect(dateRangeParams('', now)).toEqual({});
    expect(dateRangeParams('lastMonth', now)).toEqual({
      from: local(2025, 3, 1).toISOString(),
      to: local(2025, 4, 1).toISOString(),
    });
  });
});
