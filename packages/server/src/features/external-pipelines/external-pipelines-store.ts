import { and, asc, count, eq, ilike, isNotNull } from 'drizzle-orm';
import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { likePattern, pageOf, sortColumn, totalOf } from '../../platform/database/paging.js';
import { pipelines } from '../../platform/database/schema.js';
import type { PipelineRow } from '../pipeline-catalogue/pipelines-store.js';
import type { ExternalPipelinesStore as ExternalPipelinesStoreType } from './external-pipelines-store-type.js';

const SORTABLE = {
  id: pipelines.id,
  name: pipelines.name,
  version: pipelines.currentVersion,
  lastSyncedAt: pipelines.lastSyncedAt,
  createdAt: pipelines.createdAt,
  updatedAt: pipelines.updatedAt,
} as const;

/** SQL for the pipelines that have a git source; versions are written by PipelinesStore. */
export class ExternalPipelinesStore implements ExternalPipelinesStoreType {
  constructor(private readonly db: AppDb) {}

  private where(workspaceId: string) {
    return and(
      eq(pipelines.workspaceId, workspaceId),
      eq(pipelines.kind, 'pipeline'),
      isNotNull(pipelines.source),
    );
  }

  async list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: PipelineRow[]; total: number }> {
    const where = and(
      this.where(workspaceId),
      query.name ? ilike(pipelines.name, likePattern(query.name)) : undefined,
    );
    const page = pageOf(query, sortColumn(SORTABLE, query._sort, pipelines.name));
    const rows = await this.db
      .select()
      .from(pipelines)
      .where(where)
      .orderBy(page.order, asc(pipelines.id))
      .offset(page.offset)
      .limit(page.limit);
    const total = totalOf(await this.db.select({ n: count() }).from(pipelines).where(where));
    return { rows, total };
  }

  async get(workspaceId: string, id: string): Promise<PipelineRow | null> {
    const [row] = await this.db
      .select()
      .from(pipelines)
      .where(and(this.where(workspaceId), eq(pipelines.id, id)))
      .limit(1);
    return row ?? null;
  }

  /** A failed sync: the error is kept, the versions and last good sync time are not touched. */
  async recordSyncError(id: string, message: string): Promise<void> {
    await this.db.update(pipelines).set({ syncError: message }).where(eq(pipelines.id, id));
  }
}
