import type { EnvironmentListQuery } from '@slipway/contracts';
import type { deployments, environments } from '../../platform/database/schema.js';

export type DeploymentRow = typeof deployments.$inferSelect;
export type EnvironmentRow = typeof environments.$inferSelect;
export type EnvironmentWithCluster = EnvironmentRow & {
  clusterName: string | null;
  clusterStatus: string | null;
};

export type EnvironmentPatch = Partial<
  Pick<EnvironmentRow, 'name' | 'description' | 'type' | 'clusterId' | 'namespace'>
>;

/** What the environments service and the run engine need of storage; EnvironmentsStore (SQL) and FakeEnvironmentsStore implement it. */
export interface EnvironmentsStore {
  /**
   * A page of a workspace's environments with their cluster's name and status, filtered by name
   * (anywhere, any case) and cluster, ties by name, with the total.
   */
  list(
    workspaceId: string,
    query: EnvironmentListQuery,
  ): Promise<{ rows: EnvironmentWithCluster[]; total: number }>;
  get(workspaceId: string, id: string): Promise<EnvironmentWithCluster | null>;
  /** Without a workspace, for the run engine which holds a run's environment id. */
  byId(id: string): Promise<EnvironmentRow | null>;
  nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean>;
  /** Throws a unique violation when the workspace already has an environment of that name. */
  insert(row: typeof environments.$inferInsert): Promise<void>;
  update(id: string, patch: EnvironmentPatch): Promise<void>;
  delete(id: string): Promise<void>;
  /** The environment's deployments, newest first. */
  deployments(environmentId: string): Promise<DeploymentRow[]>;
}
