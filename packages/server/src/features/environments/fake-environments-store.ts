import type { EnvironmentListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import { copyOf, pageRows, sortRows, withDefaults } from '../../platform/database/fake-rows.js';
import type { FakeClustersStore } from '../clusters/fake-clusters-store.js';
import type { DeploymentRow, EnvironmentRow, EnvironmentWithCluster } from './environments-store.js';
import type { EnvironmentsStore } from './environments-store-type.js';

const SORTABLE = ['id', 'name', 'type', 'createdAt', 'updatedAt'] as const;

/**
 * Environments in memory, as the SQL store keeps them: workspace scoping, (workspace, name)
 * uniqueness, paging (default newest-created order, ties by name) and the left join to the
 * cluster, read from the FakeClustersStore it is given. Deployments are added with addDeployment.
 */
export class FakeEnvironmentsStore extends FakeNamedStore<EnvironmentRow> implements EnvironmentsStore {
  private deploymentRows: DeploymentRow[] = [];

  constructor(private readonly clusters: FakeClustersStore) {
    super('environments', 'environments_ws_name', (now) => ({
      description: '',
      clusterId: null,
      namespace: null,
      taskRunner: 'cluster',
      createdAt: now,
      updatedAt: now,
    }));
  }

  addDeployment(
    row: Partial<DeploymentRow> &
      Pick<DeploymentRow, 'id' | 'workspaceId' | 'environmentId' | 'name' | 'namespace'>,
  ): void {
    this.deploymentRows.push(
      withDefaults<DeploymentRow>(
        {
          resources: [],
          image: null,
          health: 'unknown',
          healthMessage: null,
          runId: null,
          deployedAt: new Date(),
          healthCheckedAt: null,
        },
        row,
      ),
    );
  }

  async list(workspaceId: string, query: EnvironmentListQuery) {
    const sort = (SORTABLE as readonly string[]).includes(query._sort)
      ? (query._sort as (typeof SORTABLE)[number])
      : 'createdAt';
    const matching = this.table
      .all(workspaceId)
      .filter(
        (r) =>
          (!query.name || r.name.toLowerCase().includes(query.name.toLowerCase())) &&
          (!query.clusterId || r.clusterId === query.clusterId),
      );
    const page = pageRows(
      matching,
      query,
      (r) => r[sort],
      (r) => r.name,
    );
    return { rows: page.rows.map((r) => this.withCluster(r)), total: page.total };
  }

  override async get(workspaceId: string, id: string) {
    const row = this.table.get(workspaceId, id);
    return row ? this.withCluster(row) : null;
  }

  async byId(id: string) {
    const row = this.table.everywhere().find((r) => r.id === id);
    if (!row) return null;
    const { clusterName: _name, clusterStatus: _status, ...plain } = this.withCluster(row);
    return plain;
  }

  override async delete(id: string) {
    await super.delete(id);
    this.deploymentRows = this.deploymentRows.filter((d) => d.environmentId !== id);
  }

  async deployments(environmentId: string) {
    const mine = this.deploymentRows.filter((d) => d.environmentId === environmentId);
    return sortRows(mine, (d) => d.deployedAt, 'DESC').map(copyOf);
  }

  /** The left join: a cluster that is gone reads as none (its foreign key sets null). */
  private withCluster(row: EnvironmentRow): EnvironmentWithCluster {
    const cluster = row.clusterId ? this.clusters.peek(row.clusterId) : null;
    return {
      ...row,
      clusterId: cluster ? row.clusterId : null,
      clusterName: cluster?.name ?? null,
      clusterStatus: cluster?.status ?? null,
    };
  }
}
