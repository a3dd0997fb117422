import { asc, desc, eq } from 'drizzle-orm';
import type { EnvironmentListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { clusters, deployments, environments } from '../../platform/database/schema.js';
import { firstRow, rowsWhere } from '../../platform/database/rows.js';
import { SqlNamedStore } from '../../platform/database/sql-named-store.js';
import { getInWorkspace, listPage } from '../../platform/database/workspace-rows.js';
import type {
  EnvironmentsStore,
  DeploymentRow,
  EnvironmentRow,
  EnvironmentWithCluster,
} from './environments-store-type.js';

export type { DeploymentRow, EnvironmentRow, EnvironmentWithCluster } from './environments-store-type.js';

const SORTABLE = {
  id: environments.id,
  name: environments.name,
  type: environments.type,
  createdAt: environments.createdAt,
  updatedAt: environments.updatedAt,
};

const withCluster = {
  id: environments.id,
  workspaceId: environments.workspaceId,
  name: environments.name,
  description: environments.description,
  type: environments.type,
  clusterId: environments.clusterId,
  namespace: environments.namespace,
  taskRunner: environments.taskRunner,
  createdAt: environments.createdAt,
  updatedAt: environments.updatedAt,
  clusterName: clusters.name,
  clusterStatus: clusters.status,
};

/** SQL for environments, each read with its cluster's name and status. */
export class SqlEnvironmentsStore extends SqlNamedStore<typeof environments> implements EnvironmentsStore {
  constructor(db: AppDb) {
    super(db, environments);
  }

  private selectWithCluster() {
    return this.db
      .select(withCluster)
      .from(environments)
      .leftJoin(clusters, eq(clusters.id, environments.clusterId))
      .$dynamic();
  }

  async list(
    workspaceId: string,
    query: EnvironmentListQuery,
  ): Promise<{ rows: EnvironmentWithCluster[]; total: number }> {
    return listPage(this.db, environments, {
      workspaceId,
      query,
      nameColumn: environments.name,
      where: [query.clusterId ? eq(environments.clusterId, query.clusterId) : undefined],
      sorts: SORTABLE,
      fallbackSort: environments.createdAt,
      tiebreak: asc(environments.name),
      select: this.selectWithCluster(),
    });
  }

  override async get(workspaceId: string, id: string): Promise<EnvironmentWithCluster | null> {
    return getInWorkspace(this.db, environments, workspaceId, id, { select: this.selectWithCluster() });
  }

  /** Without a workspace, for the run engine which holds a run's environment id. */
  async byId(id: string): Promise<EnvironmentRow | null> {
    return firstRow(this.db, environments, eq(environments.id, id));
  }

  async deployments(environmentId: string): Promise<DeploymentRow[]> {
    return rowsWhere(
      this.db,
      deployments,
      eq(deployments.environmentId, environmentId),
      desc(deployments.deployedAt),
    );
  }
}
