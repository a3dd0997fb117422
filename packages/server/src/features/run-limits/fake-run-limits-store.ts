import type { PipelineLimits, RunLimitsStore } from './run-limits-store-type.js';

/** In-memory RunLimitsStore for the service's unit tests. */
export class FakeRunLimitsStore implements RunLimitsStore {
  /** workspace id → its own limit */
  readonly workspaces = new Map<string, number | null>();
  /** pipeline id → its workspace and own limit (templates are not here: they have no limit) */
  readonly pipelines = new Map<string, { workspaceId: string; limit: number | null }>();

  async workspaceLimit(workspaceId: string) {
    return this.workspaces.has(workspaceId) ? (this.workspaces.get(workspaceId) ?? null) : undefined;
  }

  async setWorkspaceLimit(workspaceId: string, limit: number | null) {
    if (this.workspaces.has(workspaceId)) this.workspaces.set(workspaceId, limit);
  }

  async pipelineLimits(workspaceId: string, pipelineId: string): Promise<PipelineLimits | null> {
    const row = this.pipelines.get(pipelineId);
    if (!row || row.workspaceId !== workspaceId) return null;
    return { pipeline: row.limit, workspace: this.workspaces.get(workspaceId) ?? null };
  }

  async setPipelineLimit(workspaceId: string, pipelineId: string, limit: number | null) {
    const row = this.pipelines.get(pipelineId);
    if (!row || row.workspaceId !== workspaceId) return false;
    row.limit = limit;
    return true;
  }
}
