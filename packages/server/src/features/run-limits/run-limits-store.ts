import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { pipelines, workspaces } from '../../platform/database/schema.js';

import type { PipelineLimits, RunLimitsStore } from './run-limits-store-type.js';

/** SQL for the admission limits kept on workspaces and pipelines (`max_runs_in_progress`). */
export class SqlRunLimitsStore implements RunLimitsStore {
  constructor(private readonly db: AppDb) {}

  /** The workspace's own limit (null: none set), or undefined when there is no such workspace. */
  async workspaceLimit(workspaceId: string): Promise<number | null | undefined> {
    const [row] = await this.db
      .select({ limit: workspaces.maxRunsInProgress })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId));
    return row ? row.limit : undefined;
  }

  async setWorkspaceLimit(workspaceId: string, limit: number | null): Promise<void> {
    await this.db.update(workspaces).set({ maxRunsInProgress: limit }).where(eq(workspaces.id, workspaceId));
  }

  /** A pipeline's (not a template's) own limit and its workspace's; null when it is not in the workspace. */
  async pipelineLimits(workspaceId: string, pipelineId: string): Promise<PipelineLimits | null> {
    const [row] = await this.db
      .select({ pipeline: pipelines.maxRunsInProgress, workspace: workspaces.maxRunsInProgress })
      .from(pipelines)
      .innerJoin(workspaces, eq(workspaces.id, pipelines.workspaceId))
      .where(ofWorkspace(workspaceId, pipelineId));
    return row ?? null;
  }

  /** Sets a pipeline's own limit; false when it is not a pipeline of the workspace. */
  async setPipelineLimit(workspaceId: string, pipelineId: string, limit: number | null): Promise<boolean> {
    const rows = await this.db
      .update(pipelines)
      .set({ maxRunsInProgress: limit })
      .where(ofWorkspace(workspaceId, pipelineId))
      .returning({ id: pipelines.id });
    return rows.length > 0;
  }
}

const ofWorkspace = (workspaceId: string, pipelineId: string) =>
  and(eq(pipelines.id, pipelineId), eq(pipelines.workspaceId, workspaceId), eq(pipelines.kind, 'pipeline'));
