import type { ClusterListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import type { ClusterRow } from './clusters-store.js';
import type { ClustersStore } from './clusters-store-type.js';

/**
 * Clusters in memory, with the SQL store's workspace scoping, (workspace, name) uniqueness,
 * paging and heartbeat sweep. What the agent reports (namespaces, heartbeats) is set with report.
 */
export class FakeClustersStore extends FakeNamedStore<ClusterRow> implements ClustersStore {
  constructor() {
    super('clusters', 'clusters_ws_name', (now) => ({
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
    }));
  }

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

  async byId(id: string) {
    return this.peek(id);
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
}
