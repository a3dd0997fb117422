import { z } from 'zod';
import { CLUSTER_STATUSES, namespaceNameSchema } from './clusters.js';
import { MESSAGES } from './messages.js';
import { listQuerySchema } from './paging.js';
import { APPLICATION_HEALTH } from './statuses.js';
import { nameSchema } from './validation.js';
import { idAndName, changeStamps } from './shared.js';

/**
 * Environments, each bound to a namespace of a cluster, and what was deployed there (spec §3
 * environment; §4 statuses).
 */

export const ENVIRONMENT_TYPES = ['development', 'staging', 'production', 'other'] as const;
export type EnvironmentType = (typeof ENVIRONMENT_TYPES)[number];
/** Every workspace starts with these. */
export const DEFAULT_ENVIRONMENTS: ReadonlyArray<{
  name: string;
  type: EnvironmentType;
  description: string;
}> = [
  { name: 'development', type: 'development', description: 'Where work in progress runs' },
  { name: 'staging', type: 'staging', description: 'Where releases are tried before production' },
  { name: 'production', type: 'production', description: 'What users use' },
];

/**
 * Where a run that targets the environment runs its tasks (other than deploying, which always
 * goes through the cluster's agent): `cluster`, in the environment's namespace (when it is bound to
 * a cluster) — handed to Tekton as a PipelineRun where the cluster has Tekton Pipelines (decision
 * 037), otherwise as Slipway's pods; `pods`, as Slipway's pods even where Tekton is installed;
 * `server`, on Slipway's own local executor, sandboxed — for a cluster that should only run the
 * application, or one that cannot build images.
 */
export const TASK_RUNNERS = ['cluster', 'server', 'pods'] as const;
export type TaskRunner = (typeof TASK_RUNNERS)[number];
const taskRunnerSchema = z.enum(TASK_RUNNERS, { message: 'Task runner must be cluster, server or pods' });

const environmentFields = {
  name: nameSchema(MESSAGES.nameRequired),
  description: z.string().trim().max(1000, 'Description must have at most 1000 characters').default(''),
  type: z.enum(ENVIRONMENT_TYPES, { message: MESSAGES.typeRequired }),
  clusterId: z.string().trim().min(1, MESSAGES.clusterRequired).nullable().optional(),
  namespace: namespaceNameSchema.nullable().optional(),
  taskRunner: taskRunnerSchema.default('cluster'),
};

/** A cluster needs a namespace and a namespace needs a cluster. */
function bindingRule(e: { clusterId?: string | null; namespace?: string | null }, ctx: z.RefinementCtx) {
  if (e.clusterId && !e.namespace)
    ctx.addIssue({ code: 'custom', path: ['namespace'], message: MESSAGES.namespaceRequired });
  if (e.namespace && !e.clusterId)
    ctx.addIssue({ code: 'custom', path: ['clusterId'], message: MESSAGES.clusterRequired });
}

export const environmentCreateSchema = z.object(environmentFields).superRefine(bindingRule);
export type EnvironmentCreate = z.input<typeof environmentCreateSchema>;
export const environmentUpdateSchema = z
  .object({
    name: environmentFields.name.optional(),
    description: z.string().trim().max(1000, 'Description must have at most 1000 characters').optional(),
    type: environmentFields.type.optional(),
    clusterId: environmentFields.clusterId,
    namespace: environmentFields.namespace,
    taskRunner: taskRunnerSchema.optional(),
  })
  .superRefine((e, ctx) => {
    // Only when the binding is being changed: both or neither.
    if (e.clusterId !== undefined || e.namespace !== undefined) bindingRule(e, ctx);
  });
export type EnvironmentUpdate = z.input<typeof environmentUpdateSchema>;

/** Where an environment must be chosen (a run, a deployment): 'Environment is required'. */
export const environmentIdSchema = z
  .string({ message: MESSAGES.environmentRequired })
  .trim()
  .min(1, MESSAGES.environmentRequired);

export const deploymentSchema = z.object({
  id: z.string(),
  environmentId: z.string(),
  name: z.string(),
  namespace: z.string(),
  resources: z.array(
    z.object({
      apiVersion: z.string(),
      kind: z.string(),
      name: z.string(),
      namespace: z.string().optional(),
    }),
  ),
  image: z.string().nullable(),
  health: z.enum(APPLICATION_HEALTH),
  healthMessage: z.string().nullable(),
  runId: z.string().nullable(),
  deployedAt: z.string(),
  healthCheckedAt: z.string().nullable(),
});
export type Deployment = z.infer<typeof deploymentSchema>;

export const environmentSchema = z.object({
  ...idAndName(),
  description: z.string(),
  type: z.enum(ENVIRONMENT_TYPES),
  clusterId: z.string().nullable(),
  clusterName: z.string().nullable(),
  clusterStatus: z.enum(CLUSTER_STATUSES).nullable(),
  namespace: z.string().nullable(),
  taskRunner: z.enum(TASK_RUNNERS),
  ...changeStamps(),
});
export type Environment = z.infer<typeof environmentSchema>;
export const environmentListSchema = z.array(environmentSchema);
export const environmentDetailSchema = environmentSchema.extend({ deployments: z.array(deploymentSchema) });
export type EnvironmentDetail = z.infer<typeof environmentDetailSchema>;
export const environmentListQuerySchema = listQuerySchema.safeExtend({
  name: z.string().max(100).optional(),
  clusterId: z.string().max(100).optional(),
});
export type EnvironmentListQuery = z.infer<typeof environmentListQuerySchema>;
