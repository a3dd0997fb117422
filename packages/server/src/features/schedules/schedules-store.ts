import { and, asc, eq, getTableColumns, lte } from 'drizzle-orm';
import type { ScheduleListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { pipelines, schedules } from '../../platform/database/schema.js';
import { runnablePipeline } from '../pipeline-catalogue/runnable-pipeline.js';
import { SqlNamedStore } from '../../platform/database/sql-named-store.js';
import { getInWorkspace, listPage } from '../../platform/database/workspace-rows.js';
import type { SchedulesStore, ScheduleRow, ScheduleWithPipeline } from './schedules-store-type.js';

export type { SchedulePatch, ScheduleRow, ScheduleWithPipeline } from './schedules-store-type.js';

const SORTABLE = {
  name: schedules.name,
  nextRunAt: schedules.nextRunAt,
  lastRunAt: schedules.lastRunAt,
  createdAt: schedules.createdAt,
  id: schedules.id,
};

/** SQL for schedules; the scheduler's claim locks due rows with FOR UPDATE SKIP LOCKED. */
export class SqlSchedulesStore extends SqlNamedStore<typeof schedules> implements SchedulesStore {
  constructor(db: AppDb) {
    super(db, schedules);
  }

  /** The schedule's columns and its pipeline's name. */
  private selectWithPipeline() {
    return this.db
      .select({ ...getTableColumns(schedules), pipelineName: pipelines.name })
      .from(schedules)
      .innerJoin(pipelines, eq(pipelines.id, schedules.pipelineId))
      .$dynamic();
  }

  async list(workspaceId: string, query: ScheduleListQuery) {
    return listPage(this.db, schedules, {
      workspaceId,
      query,
      nameColumn: schedules.name,
      sorts: SORTABLE,
      fallbackSort: schedules.name,
      select: this.selectWithPipeline(),
    });
  }

  override async get(workspaceId: string, id: string): Promise<ScheduleWithPipeline | null> {
    return getInWorkspace(this.db, schedules, workspaceId, id, {
      select: this.selectWithPipeline(),
    });
  }

  /** A runnable pipeline (not a template) of the workspace. */
  async pipeline(workspaceId: string, id: string): Promise<{ id: string; name: string } | null> {
    return runnablePipeline(this.db, workspaceId, id);
  }

  /**
   * Claims up to `limit` enabled schedules due at `now` and moves each one's next_run_at on with
   * `advance`, in one transaction. Rows another process holds are skipped (SKIP LOCKED), so two
   * schedulers never claim one occurrence twice.
   */
  async claimDue(
    now: Date,
    limit: number,
    advance: (row: ScheduleRow) => Date | null,
  ): Promise<ScheduleRow[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(schedules)
        .where(and(eq(schedules.enabled, true), lte(schedules.nextRunAt, now)))
        .orderBy(asc(schedules.nextRunAt), asc(schedules.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      for (const row of due) {
        await tx
          .update(schedules)
          .set({ nextRunAt: advance(row), lastRunAt: now })
          .where(eq(schedules.id, row.id));
      }
      return due;
    });
  }

  /** The due run started: remember it, and forget why an earlier one could not start. */
  async recordRun(id: string, runId: string): Promise<void> {
    await this.db.update(schedules).set({ lastRunId: runId, lastError: null }).where(eq(schedules.id, id));
  }

  /** Why the due run could not start (shown with the schedule until a run starts again). */
  async recordError(id: string, message: string): Promise<void> {
    await this.db.update(schedules).set({ lastError: message }).where(eq(schedules.id, id));
  }
}
