import { z } from 'zod';
import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS } from './constants.js';
import { listQuerySchema, pageRules, sortOrderSchema } from './paging.js';
import { runParamValueSchema } from './pipeline-runs.js';
import { changeStamps, idAndName, pipelineIdSchema } from './shared.js';
import { backupScheduleNameSchema } from './validation.js';

/**
 * Schedules (issue 4, spec §3 Schedule): start a pipeline on a timetable. One schema per request
 * and per response.
 */

export const SCHEDULE_FREQUENCIES = ['hourly', 'daily', 'weekly', 'cron'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

export const SCHEDULE_MINUTE_MESSAGE = 'Minute must be a whole number from 0 to 59';
export const SCHEDULE_TIME_MESSAGE = 'Time must be HH:MM, from 00:00 to 23:59';
export const SCHEDULE_DAY_MESSAGE = 'Day must be a whole number from 0 (Sunday) to 6 (Saturday)';
export const SCHEDULE_CRON_MESSAGE =
  'Cron expression must have five fields: minute, hour, day of month, month, day of week';
export const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone, e.g. Europe/London';

/** True for the names Intl knows (Europe/London, UTC, America/New_York…). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .trim()
  .min(1, TIME_ZONE_MESSAGE)
  .refine(isTimeZone, TIME_ZONE_MESSAGE);
/** A whole number from 0 to `max`; `message` for anything else. */
const wholeUpTo = (max: number, message: string) =>
  z.number({ message }).int(message).min(0, message).max(max, message);
const minuteSchema = wholeUpTo(59, SCHEDULE_MINUTE_MESSAGE);
const timeSchema = z
  .string({ message: SCHEDULE_TIME_MESSAGE })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, SCHEDULE_TIME_MESSAGE);
const daySchema = wholeUpTo(6, SCHEDULE_DAY_MESSAGE);
const cronSchema = z
  .string({ message: SCHEDULE_CRON_MESSAGE })
  .trim()
  .max(200, 'Cron expression must have at most 200 characters')
  .refine((v) => v.split(/\s+/).filter(Boolean).length === 5, SCHEDULE_CRON_MESSAGE);

/** When a schedule fires: the frequency and the fields that frequency needs. */
export interface ScheduleTiming {
  frequency: ScheduleFrequency;
  minute?: number | null | undefined;
  time?: string | null | undefined;
  dayOfWeek?: number | null | undefined;
  cron?: string | null | undefined;
}

/** Which field each frequency needs, with the message when it is missing. */
export function scheduleTimingIssues(t: ScheduleTiming): Array<{ path: string; message: string }> {
  const issues: Array<{ path: string; message: string }> = [];
  const need = (ok: boolean, path: string, message: string) => {
    if (!ok) issues.push({ path, message });
  };
  if (t.frequency === 'hourly') need(t.minute != null, 'minute', 'Minute required');
  if (t.frequency === 'daily' || t.frequency === 'weekly') need(t.time != null, 'time', 'Time required');
  if (t.frequency === 'weekly') need(t.dayOfWeek != null, 'dayOfWeek', 'Day required');
  if (t.frequency === 'cron') need(Boolean(t.cron), 'cron', 'Cron expression required');
  return issues;
}

/** The five-field cron expression a timing stands for (minute, hour, day of month, month, weekday). */
export function scheduleCron(t: ScheduleTiming): string {
  const [hh, mm] = (t.time ?? '00:00').split(':').map(Number);
  switch (t.frequency) {
    case 'hourly':
      return `${t.minute ?? 0} * * * *`;
    case 'daily':
      return `${mm} ${hh} * * *`;
    case 'weekly':
      return `${mm} ${hh} * * ${t.dayOfWeek ?? 0}`;
    default:
      return (t.cron ?? '').trim().split(/\s+/).join(' ');
  }
}

const scheduleFields = {
  pipelineId: pipelineIdSchema,
  frequency: z.enum(SCHEDULE_FREQUENCIES, { message: 'Frequency must be hourly, daily, weekly or cron' }),
  minute: minuteSchema.nullish(),
  time: timeSchema.nullish(),
  dayOfWeek: daySchema.nullish(),
  cron: cronSchema.nullish(),
  timeZone: timeZoneSchema,
  params: z.record(z.string(), runParamValueSchema),
  timeoutHours: z
    .number({ message: 'Timeout must be a number of hours' })
    .positive('Timeout must be more than 0 hours')
    .max(168, 'Timeout must be at most 168 hours'),
  enabled: z.boolean(),
};

export const scheduleCreateSchema = z
  .object({
    name: backupScheduleNameSchema,
    ...scheduleFields,
    timeZone: scheduleFields.timeZone.default('UTC'),
    params: scheduleFields.params.default({}),
    timeoutHours: scheduleFields.timeoutHours.default(PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS),
    enabled: scheduleFields.enabled.default(true),
  })
  .superRefine((s, ctx) => {
    for (const issue of scheduleTimingIssues(s))
      ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path] });
  });
export type ScheduleCreate = z.input<typeof scheduleCreateSchema>;
export type ScheduleCreateParsed = z.infer<typeof scheduleCreateSchema>;

/** Fields left out keep their values; the result must still name what its frequency needs. */
export const scheduleUpdateSchema = z.object({
  name: backupScheduleNameSchema.optional(),
  pipelineId: scheduleFields.pipelineId.optional(),
  frequency: scheduleFields.frequency.optional(),
  minute: scheduleFields.minute,
  time: scheduleFields.time,
  dayOfWeek: scheduleFields.dayOfWeek,
  cron: scheduleFields.cron,
  timeZone: scheduleFields.timeZone.optional(),
  params: scheduleFields.params.optional(),
  timeoutHours: scheduleFields.timeoutHours.optional(),
  enabled: scheduleFields.enabled.optional(),
});
export type ScheduleUpdate = z.infer<typeof scheduleUpdateSchema>;

export const scheduleSchema = z.object({
  ...idAndName(),
  pipelineId: z.string(),
  pipelineName: z.string(),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  minute: z.number().int().nullable(),
  time: z.string().nullable(),
  dayOfWeek: z.number().int().nullable(),
  cron: z.string().nullable(),
  /** the five-field cron expression the frequency stands for */
  expression: z.string(),
  timeZone: z.string(),
  params: z.record(z.string(), runParamValueSchema),
  timeoutHours: z.number(),
  enabled: z.boolean(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  lastRunId: z.string().nullable(),
  /** why the last due run could not start; null once a run starts again */
  lastError: z.string().nullable(),
  ...changeStamps(),
});
export type Schedule = z.infer<typeof scheduleSchema>;
export const scheduleListSchema = z.array(scheduleSchema);

export const scheduleListQuerySchema = pageRules(
  listQuerySchema.safeExtend({
    _sort: z.enum(['name', 'nextRunAt', 'lastRunAt', 'createdAt', 'id']).default('name'),
    _order: sortOrderSchema('ASC'),
    name: z.string().max(100).optional(),
  }),
);
export type ScheduleListQuery = z.infer<typeof scheduleListQuerySchema>;
