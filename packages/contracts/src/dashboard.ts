import { z } from 'zod';
import { CLUSTER_STATUSES } from './clusters.js';
import { PIPELINE_RUN_STATUSES } from './pipeline-runs.js';
import { APPLICATION_HEALTH } from './statuses.js';

/**
 * The dashboard a workspace lands on (spec §2 "Dashboard … project status"): a getting-started
 * checklist until the first deployment, then the state of its applications, runs and clusters,
 * failing things first. A section the caller may not view is null.
 */

/** The getting-started steps, in order; `done` is read from what the workspace has. */
export const GETTING_STARTED_STEPS = ['cluster', 'application', 'pipeline', 'run', 'deployment'] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

export const dashboardSchema = z.object({
  gettingStarted: z.array(z.object({ step: z.enum(GETTING_STARTED_STEPS), done: z.boolean() })),
  applications: z
    .object({
      total: z.number(),
      /** how many applications are in each health (the worst over their environments) */
      byHealth: z.record(z.enum(APPLICATION_HEALTH), z.number()),
      /** the ones to look at first: not healthy, then the most recently changed */
      attention: z.array(z.object({ id: z.string(), name: z.string(), health: z.enum(APPLICATION_HEALTH) })),
    })
    .nullable(),
  runs: z
    .object({
      /** runs queued in the last 7 days, by status */
      lastWeek: z.record(z.enum(PIPELINE_RUN_STATUSES), z.number()),
      recent: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          pipelineId: z.string(),
          pipelineName: z.string(),
          status: z.enum(PIPELINE_RUN_STATUSES),
          trigger: z.object({ kind: z.string(), id: z.string().nullable().optional() }),
          queuedAt: z.string(),
          finishedAt: z.string().nullable(),
        }),
      ),
    })
    .nullable(),
  clusters: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        status: z.enum(CLUSTER_STATUSES),
        nodeCount: z.number().nullable(),
        lastHeartbeatAt: z.string().nullable(),
      }),
    )
    .nullable(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
