import {
  DEFAULT_PIPELINE_RUNS_IN_PROGRESS,
  DEFAULT_WORKSPACE_RUNS_IN_PROGRESS,
  type RunLimit,
} from '@slipway/contracts';
import { NotFoundError } from '../../platform/errors.js';
import type { RunLimitsStore } from './run-limits-store-type.js';

const workspaceLimit = (own: number | null): RunLimit => ({
  maxRunsInProgress: own,
  defaultLimit: DEFAULT_WORKSPACE_RUNS_IN_PROGRESS,
  effective: own ?? DEFAULT_WORKSPACE_RUNS_IN_PROGRESS,
});

/**
 * Admission limits (issue 15): a workspace admin's limit on the workspace's runs in progress at
 * once, and a pipeline editor's on one pipeline's. Both hold at every claim, on every replica: a
 * pipeline's limit above its workspace's is kept, and the workspace's admits no more than its own
 * (`effective` says which binds).
 */
export class RunLimitsService {
  constructor(private readonly store: RunLimitsStore) {}

  /** The workspace's limit; `id` must be the workspace the request is in (x-workspace-id). */
  async workspace(workspaceId: string, id: string): Promise<RunLimit> {
    const own = id === workspaceId ? await this.store.workspaceLimit(id) : undefined;
    if (own === undefined) throw new NotFoundError('Workspace not found');
    return workspaceLimit(own);
  }

  async setWorkspace(workspaceId: string, id: string, limit: number | null): Promise<RunLimit> {
    await this.workspace(workspaceId, id);
    await this.store.setWorkspaceLimit(id, limit);
    return workspaceLimit(limit);
  }

  async pipeline(workspaceId: string, pipelineId: string): Promise<RunLimit> {
    const limits = await this.store.pipelineLimits(workspaceId, pipelineId);
    if (!limits) throw new NotFoundError('Pipeline not found');
    const workspace = limits.workspace ?? DEFAULT_WORKSPACE_RUNS_IN_PROGRESS;
    return {
      maxRunsInProgress: limits.pipeline,
      defaultLimit: DEFAULT_PIPELINE_RUNS_IN_PROGRESS,
      effective: Math.min(limits.pipeline ?? DEFAULT_PIPELINE_RUNS_IN_PROGRESS, workspace),
      workspaceLimit: workspace,
    };
  }

  async setPipeline(workspaceId: string, pipelineId: string, limit: number | null): Promise<RunLimit> {
    if (!(await this.store.setPipelineLimit(workspaceId, pipelineId, limit)))
      throw new NotFoundError('Pipeline not found');
    return this.pipeline(workspaceId, pipelineId);
  }
}
