import type { EnvironmentListQuery } from '@slipway/contracts';
import type { deployments, environments } from '../../platform/database/schema.js';
import type { NamedStore } from '../../platform/named-rows.js';

export type DeploymentRow = typeof deployments.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type EnvironmentWithCluster = EnvironmentRow & {
  clusterName: string | null;
  clusterStatus: string | null;
};

export type EnvironmentPatch = Partial<
  Pick<EnvironmentRow, 'name' | 'description' | 'type' | 'clusterId' | 'namespace' | 'taskRunner'>
>;

/** What the environments service and the run engine need of storage; EnvironmentsStore (SQL) and FakeEnvironmentsStore implement it. */
export interface EnvironmentsStore extends NamedStore<
  EnvironmentWithCluster,
  typeof environments.$inferInsert,
  EnvironmentPatch
> {
  /**
   * A page of a workspace's environments with their cluster's name and status, filtered by name
   * (anywhere, any case) and cluster, ties by name, with the total.
   */
  list(
    workspaceId: string,
    query: EnvironmentListQuery,
  ): Promise<{ rows: EnvironmentWithCluster[]; total: number }>;
  /** Without a workspace, for the run engine which holds a run's environment id. */
  byId(id: string): Promise<EnvironmentRow | null>;
  /** The environment's deployments, newest first. */
  deployments(environmentId: string): Promise<DeploymentRow[]>;
}
