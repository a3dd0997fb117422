import type { ScheduleListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import { sortRows } from '../../platform/database/fake-rows.js';
import type { ScheduleRow, ScheduleWithPipeline } from './schedules-store.js';
import type { SchedulesStore } from './schedules-store-type.js';

interface FakePipeline {
  id: string;
  workspaceId: string;
  name: string;
  kind: 'pipeline' | 'template';
}

/**
 * Schedules in memory, with the SQL store's scoping, paging, (workspace, name) uniqueness and
 * the join to the pipeline (a schedule is read with its pipeline's name, and only while the
 * pipeline exists). Tests add the pipelines with addPipeline.
 */
export class FakeSchedulesStore extends FakeNamedStore<ScheduleRow> implements SchedulesStore {
  private readonly pipelines = new Map<string, FakePipeline>();

  constructor() {
    super('schedules', 'schedules_ws_name', (now) => ({
      minute: null,
      time: null,
      dayOfWeek: null,
      cron: null,
      timeZone: 'UTC',
      params: {},
      timeoutHours: 1,
      enabled: true,
      nextRunAt: null,
      lastRunAt: null,
      lastRunId: null,
      lastError: null,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    }));
  }

  addPipeline(pipeline: FakePipeline): void {
    this.pipelines.set(pipeline.id, { ...pipeline });
  }

  async list(workspaceId: string, query: ScheduleListQuery) {
    const page = this.table.page(
      workspaceId,
      query,
      ['name', 'nextRunAt', 'lastRunAt', 'createdAt', 'id'],
      'name',
    );
    return { rows: page.rows.flatMap((r) => this.withPipeline(r) ?? []), total: page.total };
  }

  override async get(workspaceId: string, id: string) {
    const row = this.table.get(workspaceId, id);
    return row ? this.withPipeline(row) : null;
  }

  async pipeline(workspaceId: string, id: string) {
    const p = this.pipelines.get(id);
    return p && p.workspaceId === workspaceId && p.kind === 'pipeline' ? { id: p.id, name: p.name } : null;
  }

  async claimDue(now: Date, limit: number, advance: (row: ScheduleRow) => Date | null) {
    const due = this.table
      .everywhere()
      .filter((r) => r.enabled && r.nextRunAt !== null && r.nextRunAt.getTime() <= now.getTime());
    const claimed = sortRows(
      due,
      (r) => r.nextRunAt,
      'ASC',
      (r) => r.id,
    ).slice(0, limit);
    for (const row of claimed) this.table.write(row.id, { nextRunAt: advance(row), lastRunAt: now });
    return claimed;
  }

  async recordRun(id: string, runId: string) {
    this.table.write(id, { lastRunId: runId, lastError: null });
  }

  async recordError(id: string, message: string) {
    this.table.write(id, { lastError: message });
  }

  private withPipeline(row: ScheduleRow): ScheduleWithPipeline | null {
    const pipeline = this.pipelines.get(row.pipelineId);
    return pipeline ? { ...row, pipelineName: pipeline.name } : null;
  }
}
