import type { TFunction } from 'i18next';
import type { Schedule } from '@slipway/contracts';

/** The time zones a schedule may use: UTC first, then every IANA zone the browser knows. */
export function timeZoneOptions(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/** The browser's own zone, the natural default for a new schedule. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** "Daily at 06:45", "Weekly on Friday at 18:30", "Hourly at minute 15", "Cron 0 2 * * 1-5". */
export function describeFrequency(
  s: Pick<Schedule, 'frequency' | 'minute' | 'time' | 'dayOfWeek' | 'cron'>,
  t: TFunction,
): string {
  switch (s.frequency) {
    case 'hourly':
      return t('schedules.describe.hourly', { minute: String(s.minute ?? 0).padStart(2, '0') });
    case 'daily':
      return t('schedules.describe.daily', { time: s.time ?? '' });
    case 'weekly':
      return t('schedules.describe.weekly', {
        day: t(`schedules.days.d${s.dayOfWeek ?? 0}`),
        time: s.time ?? '',
      });
    default:
      return t('schedules.describe.cron', { cron: s.cron ?? '' });
  }
}
