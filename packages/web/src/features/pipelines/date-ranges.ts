/**
 * The run list's date range presets (spec §9): last 7 days, this month, last month, last 3
 * months, this year, last 6 months, as `from` (inclusive) and `to` (exclusive) instants in the
 * viewer's own time zone.
 */
export const DATE_RANGE_PRESETS = [
  'last7Days',
  'thisMonth',
  'lastMonth',
  'last3Months',
  'thisYear',
  'last6Months',
] as const;
export type DateRangePreset = (typeof DATE_RANGE_PRESETS)[number];

export interface DateRange {
  from: Date;
  to?: Date;
}

function monthsBack(now: Date, months: number): Date {
  const d = new Date(now);
  const day = d.getDate();
  d.setDate(1);
  d.setMonth(d.getMonth() - months);
  const last = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
  d.setDate(Math.min(day, last));
  return d;
}

export function dateRangeOf(preset: DateRangePreset, now: Date): DateRange {
  const y = now.getFullYear();
  const m = now.getMonth();
  switch (preset) {
    case 'last7Days':
      return { from: new Date(now.getTime() - 7 * 24 * 3600 * 1000) };
    case 'thisMonth':
      return { from: new Date(y, m, 1) };
    case 'lastMonth':
      return { from: new Date(y, m - 1, 1), to: new Date(y, m, 1) };
    case 'last3Months':
      return { from: monthsBack(now, 3) };
    case 'thisYear':
      return { from: new Date(y, 0, 1) };
    case 'last6Months':
      return { from: monthsBack(now, 6) };
  }
}

/** The list query's date filter for a preset ('' for all time). */
export function dateRangeParams(preset: DateRangePreset | '', now: Date): Record<string, string> {
  if (!preset) return {};
  const r = dateRangeOf(preset, now);
  return { from: r.from.toISOString(), ...(r.to ? { to: r.to.toISOString() } : {}) };
}
