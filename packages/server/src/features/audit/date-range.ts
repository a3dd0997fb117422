import type { DateRangePreset } from '@slipway/contracts';

export interface DateWindow {
  /** inclusive */
  from: Date;
  /** exclusive */
  to: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The same moment `months` calendar months earlier, in UTC; the day is clamped (31 May − 3 → 28/29 Feb). */
export function monthsBefore(now: Date, months: number): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(now.getTime());
  d.setUTCFullYear(y, m, Math.min(now.getUTCDate(), lastDay));
  return d;
}

/**
 * The date ranges of spec §9 as [from, to) in UTC:
 * last 7 days and last 3 / 6 months end now; this month and this year start at their first
 * instant and end now; last month is the whole previous calendar month.
 */
export function dateRange(preset: DateRangePreset, now: Date): DateWindow {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  switch (preset) {
    case 'last_7_days':
      return { from: new Date(now.getTime() - 7 * DAY_MS), to: now };
    case 'this_month':
      return { from: new Date(Date.UTC(y, m, 1)), to: now };
    case 'last_month':
      return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
    case 'last_3_months':
      return { from: monthsBefore(now, 3), to: now };
    case 'this_year':
      return { from: new Date(Date.UTC(y, 0, 1)), to: now };
    case 'last_6_months':
      return { from: monthsBefore(now, 6), to: now };
  }
}
