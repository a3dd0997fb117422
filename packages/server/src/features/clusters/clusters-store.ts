import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { ClusterListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { clusters } from '../../platform/database/schema.js';
import { deleteById, firstRow, updateById } from '../../platform/database/rows.js';
import { getInWorkspace, listPage, nameTaken } from '../../platform/database/workspace-rows.js';
import type { ClustersStore, ClusterRow } from './clusters-store-type.js';

export type { ClusterRow } from './clusters-store-type.js';

const SORTABLE = {
  id: clusters.id,
  name: clusters.name,
  status: clusters.status,
  createdAt: clusters.createdAt,
  lastHeartbeatAt: clusters.lastHeartbeatAt,
};

/** SQL for clusters; every read is scoped to a workspace. */
export class SqlClustersStore implements ClustersStore {
  constructor(private readonly db: AppDb) {}

  async list(workspaceId: string, query: ClusterListQuery): Promise<{ rows: ClusterRow[]; total: number }> {
    return listPage(this.db, clusters, {
      workspaceId,
      query,
      nameColumn: clusters.name,
      where: [query.status ? eq(clusters.status, query.status) : undefined],
      sorts: SORTABLE,
      fallbackSort: clusters.name,
    });
  }

  async get(workspaceId: string, id: string): Promise<ClusterRow | null> {
    return getInWorkspace(this.db, clusters, workspaceId, id);
  }

  /** Without a workspace: for the executor and the deploy tasks, which already hold an id. */
  async byId(id: string): Promise<ClusterRow | null> {
    return firstRow(this.db, clusters, eq(clusters.id, id));
  }

  async nameTaken(workspaceId: string, name: string): Promise<boolean> {
    return nameTaken(this.db, clusters, workspaceId, name);
  }

  async insert(row: typeof clusters.$inferInsert): Promise<void> {
    await this.db.insert(clusters).values(row);
  }

  async update(
    id: string,
    patch: Partial<
      Pick<
        ClusterRow,
        'status' | 'statusMessage' | 'tokenHash' | 'tokenPrefix' | 'tokenRevokedAt' | 'selectedNamespaces'
      >
    >,
  ): Promise<void> {
    await updateById(this.db, clusters, id, patch);
  }

  /** Active clusters whose last heartbeat is older than the cut-off become not active; answers their ids. */
  /**
   * Marks active clusters not active whose last heartbeat is older than `missedBeats` of their
   * own agent's heartbeat interval (`heartbeat_seconds`, from the hello) before `now`.
   */
  async markSilent(now: Date, missedBeats: number, message: string): Promise<string[]> {
    const cutoff = sql`${now.toISOString()}::timestamptz - make_interval(secs => ${clusters.heartbeatSeconds} * ${missedBeats}::int)`;
    const rows = await this.db
      .update(clusters)
      .set({ status: 'not_active', statusMessage: message, updatedAt: new Date() })
      .where(
        and(
          eq(clusters.status, 'active'),
          or(isNull(clusters.lastHeartbeatAt), sql`${clusters.lastHeartbeatAt} < ${cutoff}`),
        ),
      )
      .returning({ id: clusters.id });
    return rows.map((r) => r.id);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, clusters, id);
  }
}
