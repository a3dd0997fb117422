import { z } from 'zod';

/**
 * Admission limits (issue 15): how many runs of one workspace, and of one pipeline, may be in
 * progress at once across every server replica. Runs over a limit wait, pending, until a run of
 * theirs ends. A workspace or pipeline without its own limit has the default.
 */
export const DEFAULT_WORKSPACE_RUNS_IN_PROGRESS = 4;
export const DEFAULT_PIPELINE_RUNS_IN_PROGRESS = 2;
export const MAX_RUNS_IN_PROGRESS_LIMIT = 100;
export const MAX_RUNS_IN_PROGRESS_RULE_MESSAGE =
  'Runs in progress at once must be a whole number from 1 to 100, or null for the default';

/** A workspace's or pipeline's limit on its runs in progress at once; null for the default. */
export const maxRunsInProgressSchema = z
  .number({ message: MAX_RUNS_IN_PROGRESS_RULE_MESSAGE })
  .int(MAX_RUNS_IN_PROGRESS_RULE_MESSAGE)
  .min(1, MAX_RUNS_IN_PROGRESS_RULE_MESSAGE)
  .max(MAX_RUNS_IN_PROGRESS_LIMIT, MAX_RUNS_IN_PROGRESS_RULE_MESSAGE)
  .nullable();

export const runLimitRequestSchema = z.object({ maxRunsInProgress: maxRunsInProgressSchema });
export type RunLimitRequest = z.infer<typeof runLimitRequestSchema>;

/**
 * A workspace's or pipeline's limit: its own (null: none set), the default it has without one, and
 * the limit in force. A pipeline's limit in force is the smaller of its own (or the default) and its
 * workspace's in force, since both hold: a pipeline limit above its workspace's is kept but the
 * workspace's admits no more runs than its own.
 */
export const runLimitSchema = z.object({
  maxRunsInProgress: z.number().int().nullable(),
  defaultLimit: z.number().int(),
  effective: z.number().int(),
  /** for a pipeline: its workspace's limit in force */
  workspaceLimit: z.number().int().optional(),
});
export type RunLimit = z.infer<typeof runLimitSchema>;
