import { CronExpressionParser } from 'cron-parser';
import { SCHEDULE_CRON_MESSAGE, scheduleCron, type ScheduleTiming } from '@slipway/contracts';

/** Why a cron expression is refused, or null when cron-parser accepts its five fields. */
export function cronProblem(expression: string): string | null {
  if (expression.trim().split(/\s+/).length !== 5) return SCHEDULE_CRON_MESSAGE;
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' });
    return null;
  } catch (err) {
    return `Cron expression is not valid: ${(err as Error).message}`;
  }
}

/**
 * The first time strictly after `after` at which the timing fires, in its IANA time zone.
 * Wall-clock times follow the zone's daylight saving: 09:00 in Europe/London is 08:00 UTC in
 * summer and 09:00 UTC in winter. A time that does not exist on the spring-forward day fires one
 * hour later that day; a time that happens twice on the fall-back day fires once.
 */
export function nextOccurrence(timing: ScheduleTiming, timeZone: string, after: Date): Date {
  const expression = CronExpressionParser.parse(scheduleCron(timing), { currentDate: after, tz: timeZone });
  let next = expression.next().toDate();
  // cron-parser may answer the current instant when it sits exactly on an occurrence
  while (next.getTime() <= after.getTime()) next = expression.next().toDate();
  return next;
}
