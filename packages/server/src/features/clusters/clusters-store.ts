import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { ClusterListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { clusters } from '../../platform/database/schema.js';
import { firstRow } from '../../platform/database/rows.js';
import { SqlNamedStore } from '../../platform/database/sql-named-store.js';
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
export class SqlClustersStore extends SqlNamedStore<typeof clusters> implements ClustersStore {
  constructor(db: AppDb) {
    super(db, clusters);
  }

  async list(workspaceId: string, query: ClusterListQuery): Promise<{ rows: ClusterRow[]; total: number }> {
    return this.listNamed(workspaceId, query, SORTABLE, [
      query.status ? eq(clusters.status, query.status) : undefined,
    ]);
  }

  /** Without a workspace: for the executor and the deploy tasks, which already hold an id. */
  async byId(id: string): Promise<ClusterRow | null> {
    return firstRow(this.db, clusters, eq(clusters.id, id));
  }

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
}
