/** A pipeline's own limit on its runs in progress and its workspace's (null: none set, the default). */
export interface PipelineLimits {
  pipeline: number | null;
  workspace: number | null;
}

/**
 * What the run-limits service needs of storage: the admission limits kept on workspaces and
 * pipelines (`max_runs_in_progress`); SqlRunLimitsStore and FakeRunLimitsStore implement it.
 */
export interface RunLimitsStore {
  /** The workspace's own limit (null: none set), or undefined when there is no such workspace. */
  workspaceLimit(workspaceId: string): Promise<number | null | undefined>;
  setWorkspaceLimit(workspaceId: string, limit: number | null): Promise<void>;
  /** A pipeline's (not a template's) own limit and its workspace's; null when it is not in the workspace. */
  pipelineLimits(workspaceId: string, pipelineId: string): Promise<PipelineLimits | null>;
  /** Sets a pipeline's own limit; false when it is not a pipeline of the workspace. */
  setPipelineLimit(workspaceId: string, pipelineId: string, limit: number | null): Promise<boolean>;
}
