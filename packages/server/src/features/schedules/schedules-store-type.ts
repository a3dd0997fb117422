import type { ScheduleListQuery } from '@slipway/contracts';
import type { schedules } from '../../platform/database/schema.js';
import type { NamedStore } from '../../platform/named-rows.js';

export type SchedulePatch = Partial<
  Pick<
    ScheduleRow,
    | 'name'
    | 'pipelineId'
    | 'frequency'
    | 'minute'
    | 'time'
    | 'dayOfWeek'
    | 'cron'
    | 'timeZone'
    | 'params'
    | 'timeoutHours'
    | 'enabled'
    | 'nextRunAt'
    | 'lastRunId'
  >
>;
export type ScheduleRow = typeof schedules.$inferSelect;
export type ScheduleWithPipeline = ScheduleRow & { pipelineName: string };

/** What the schedules service and the scheduler need of storage; SchedulesStore (SQL) and FakeSchedulesStore implement it. */
export interface SchedulesStore extends NamedStore<
  ScheduleWithPipeline,
  typeof schedules.$inferInsert,
  SchedulePatch
> {
  /** A page of a workspace's schedules with their pipeline's name, filtered by name, with the total. */
  list(
    workspaceId: string,
    query: ScheduleListQuery,
  ): Promise<{ rows: ScheduleWithPipeline[]; total: number }>;
  /** A runnable pipeline (not a template) of the workspace. */
  pipeline(workspaceId: string, id: string): Promise<{ id: string; name: string } | null>;
  /**
   * Claims up to `limit` enabled schedules (of every workspace) due at `now`, oldest due first,
   * moving each one's nextRunAt on with `advance` and its lastRunAt to `now`; a schedule is never
   * claimed twice for one occurrence.
   */
  claimDue(now: Date, limit: number, advance: (row: ScheduleRow) => Date | null): Promise<ScheduleRow[]>;
  recordRun(id: string, runId: string): Promise<void>;
  recordError(id: string, message: string): Promise<void>;
}
