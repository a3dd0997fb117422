import { eq, isNotNull } from 'drizzle-orm';
import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { pipelines } from '../../platform/database/schema.js';
import { getInWorkspace, listPage } from '../../platform/database/workspace-rows.js';
import type { PipelineRow } from '../pipeline-catalogue/pipelines-store.js';
import type { ExternalPipelinesStore } from './external-pipelines-store-type.js';

const SORTABLE = {
  id: pipelines.id,
  name: pipelines.name,
  version: pipelines.currentVersion,
  lastSyncedAt: pipelines.lastSyncedAt,
  createdAt: pipelines.createdAt,
  updatedAt: pipelines.updatedAt,
} as const;

/** SQL for the pipelines that have a git source; versions are written by PipelinesStore. */
export class SqlExternalPipelinesStore implements ExternalPipelinesStore {
  constructor(private readonly db: AppDb) {}

  /** Besides the workspace: a runnable pipeline with a git source. */
  private readonly external = [eq(pipelines.kind, 'pipeline'), isNotNull(pipelines.source)];

  async list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: PipelineRow[]; total: number }> {
    return listPage(this.db, pipelines, {
      workspaceId,
      query,
      nameColumn: pipelines.name,
      where: this.external,
      sorts: SORTABLE,
      fallbackSort: pipelines.name,
    });
  }

  async get(workspaceId: string, id: string): Promise<PipelineRow | null> {
    return getInWorkspace(this.db, pipelines, workspaceId, id, { where: this.external });
  }

  /** A failed sync: the error is kept, the versions and last good sync time are not touched. */
  async recordSyncError(id: string, message: string): Promise<void> {
    await this.db.update(pipelines).set({ syncError: message }).where(eq(pipelines.id, id));
  }
}
