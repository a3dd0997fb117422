import type { ClusterListQuery } from '@slipway/contracts';
import { FakeNamedTable, withDefaults } from '../../platform/database/fake-rows.js';
import type { clusters } from '../../platform/database/schema.js';
import type { ClusterRow } from './clusters-store.js';
import type { ClusterPatch, ClustersStore } from './clusters-store-type.js';

/**
 * Clusters in memory, with the SQL store's workspace scoping, (workspace, name) uniqueness,
 * paging and heartbeat sweep. What the agent reports (namespaces, heartbeats) is set with report.
 */
export class FakeClustersStore implements ClustersStore {
  private readonly table = new FakeNamedTable<ClusterRow>('clusters', 'clusters_ws_name');

  /** What the agent gateway writes when an agent says hello or heartbeats. */
  report(id: string, fields: Partial<ClusterRow>): void {
    this.table.write(id, fields);
  }

  /** The cluster as it is now, for fakes of stores that join it (environments). */
  peek(id: string): ClusterRow | null {
    return this.table.everywhere().find((r) => r.id === id) ?? null;
  }

  async list(workspaceId: string, query: ClusterListQuery) {
    const sortable = ['id', 'name', 'status', 'createdAt', 'lastHeartbeatAt'] as const;
    return this.table.page(
      workspaceId,
      query,
      sortable,
      'name',
      (r) => !query.status || r.status === query.status,
    );
  }

  async get(workspaceId: string, id: string) {
    return this.table.get(workspaceId, id);
  }

  async byId(id: string) {
    return this.peek(id);
  }

  async nameTaken(workspaceId: string, name: string) {
    return this.table.nameTaken(workspaceId, name);
  }

  async insert(row: typeof clusters.$inferInsert) {
    const now = new Date();
    this.table.insert(
      withDefaults<ClusterRow>(
        {
          private: false,
          tunnelConfig: null,
          publicRegistryPrefix: null,
          limitedAgentPermission: false,
          allowedNamespaces: ['ozone'],
          selectedNamespaces: [],
          status: 'attaching',
          statusMessage: null,
          tokenHash: null,
          tokenPrefix: null,
          tokenRevokedAt: null,
          agentVersion: null,
          kubernetesVersion: null,
          nodeCount: null,
          totalVcpu: null,
          namespaces: [],
          installedResources: [],
          storageOptions: [],
          lastHeartbeatAt: null,
          heartbeatSeconds: 30,
          connectedAt: null,
          createdBy: null,
          createdAt: now,
          updatedAt: now,
        },
        row,
      ),
    );
  }

  async update(id: string, patch: ClusterPatch) {
    this.table.update(id, patch);
  }

  async markSilent(now: Date, missedBeats: number, message: string) {
    const silent = this.table
      .everywhere()
      .filter(
        (r) =>
          r.status === 'active' &&
          (r.lastHeartbeatAt === null ||
            r.lastHeartbeatAt.getTime() < now.getTime() - r.heartbeatSeconds * missedBeats * 1000),
      );
    for (const r of silent) this.table.update(r.id, { status: 'not_active', statusMessage: message });
    return silent.map((r) => r.id);
  }

  async delete(id: string) {
    this.table.delete(id);
  }
}
