import { jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, description, parentRef, stamped, timestamps } from './columns.js';
import { nameUniqueInWorkspace, workspaceNamed, workspaceRow } from './identity.js';
import { clusters } from './clusters.js';

/** Environments and what is deployed into them (issue 5). */

/** Where things are deployed: a namespace on a cluster. */
export const environments = pgTable(
  'environments',
  {
    ...workspaceNamed(),
    description: description(),
    /** development | staging | production | other */
    type: text('type').notNull(),
    clusterId: text('cluster_id').references(() => clusters.id, { onDelete: 'set null' }),
    namespace: text('namespace'),
    /** cluster | server: where a run's tasks other than deploying run (contracts TASK_RUNNERS) */
    taskRunner: text('task_runner').notNull().default('cluster'),
    ...timestamps(),
  },
  nameUniqueInWorkspace('environments'),
);

/** An application deployed into an environment, and its last known health. */
export const deployments = pgTable(
  'deployments',
  {
    ...workspaceRow(),
    environmentId: parentRef('environment_id', () => environments.id),
    /** the application's name (app.kubernetes.io/name of what was applied) */
    name: text('name').notNull(),
    namespace: text('namespace').notNull(),
    /** [{ apiVersion, kind, name, namespace }] applied by the last deployment */
    resources: jsonb('resources').notNull().default([]),
    image: text('image'),
    /** healthy | progressing | degraded | suspended | missing | unknown */
    health: text('health').notNull().default('unknown'),
    healthMessage: text('health_message'),
    runId: text('run_id'),
    deployedAt: stamped('deployed_at'),
    healthCheckedAt: at('health_checked_at'),
  },
  (t) => [uniqueIndex('deployments_env_name').on(t.environmentId, t.name)],
);
