import { and, asc, count, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { ClusterListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { likePattern, pageOf, sortColumn, totalOf } from '../../platform/database/paging.js';
import { clusters } from '../../platform/database/schema.js';
import type { ClustersStore as ClustersStoreType, ClusterRow } from './clusters-store-type.js';

export type { ClusterRow } from './clusters-store-type.js';

const SORTABLE = {
  id: clusters.id,
  name: clusters.name,
  status: clusters.status,
  createdAt: clusters.createdAt,
  lastHeartbeatAt: clusters.lastHeartbeatAt,
};

/** SQL for clusters; every read is scoped to a workspace. */
export class ClustersStore implements ClustersStoreType {
  constructor(private readonly db: AppDb) {}

  async list(workspaceId: string, query: ClusterListQuery): Promise<{ rows: ClusterRow[]; total: number }> {
    const where = and(
      eq(clusters.workspaceId, workspaceId),
      query.name ? ilike(clusters.name, likePattern(query.name)) : undefined,
      query.status ? eq(clusters.status, query.status) : undefined,
    );
    const page = pageOf(query, sortColumn(SORTABLE, query._sort, clusters.name));
    const rows = await this.db
      .select()
      .from(clusters)
      .where(where)
      .orderBy(page.order, asc(clusters.id))
      .offset(page.offset)
      .limit(page.limit);
    const total = totalOf(await this.db.select({ n: count() }).from(clusters).where(where));
    return { rows, total };
  }

  async get(workspaceId: string, id: string): Promise<ClusterRow | null> {
    const [row] = await this.db
      .select()
      .from(clusters)
      .where(and(eq(clusters.workspaceId, workspaceId), eq(clusters.id, id)))
      .limit(1);
    return row ?? null;
  }

  /** Without a workspace: for the executor and the deploy tasks, which already hold an id. */
  async byId(id: string): Promise<ClusterRow | null> {
    const [row] = await this.db.select().from(clusters).where(eq(clusters.id, id)).limit(1);
    return row ?? null;
  }

  async nameTaken(workspaceId: string, name: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: clusters.id })
      .from(clusters)
      .where(and(eq(clusters.workspaceId, workspaceId), eq(clusters.name, name)))
      .limit(1);
    return Boolean(row);
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
    await this.db
      .update(clusters)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(clusters.id, id));
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
    await this.db.delete(clusters).where(eq(clusters.id, id));
  }
}
