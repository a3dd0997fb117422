import type { ClusterListQuery } from '@slipway/contracts';
import type { clusters } from '../../platform/database/schema.js';
import type { NamedStore } from '../../platform/named-rows.js';

export type ClusterRow = typeof clusters.$inferSelect;

export type ClusterPatch = Partial<
  Pick<
    ClusterRow,
    'status' | 'statusMessage' | 'tokenHash' | 'tokenPrefix' | 'tokenRevokedAt' | 'selectedNamespaces'
  >
>;

/**
 * What the clusters and environments services and the heartbeat sweeper need of storage;
 * ClustersStore (SQL) and FakeClustersStore implement it.
 */
export interface ClustersStore extends NamedStore<ClusterRow, typeof clusters.$inferInsert, ClusterPatch> {
  /** A page of a workspace's clusters, filtered by name (anywhere, any case) and status, with the total. */
  list(workspaceId: string, query: ClusterListQuery): Promise<{ rows: ClusterRow[]; total: number }>;
  /** Without a workspace: for the executor and the deploy tasks, which already hold an id. */
  byId(id: string): Promise<ClusterRow | null>;
  /**
   * Marks active clusters not active whose last heartbeat (or none) is older than `missedBeats`
   * of their own heartbeat interval before `now`; answers their ids.
   */
  markSilent(now: Date, missedBeats: number, message: string): Promise<string[]>;
}
