import { addOnIdsOf, type AgentHello } from '@slipway/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { clusters } from '../../platform/database/schema.js';

export interface AgentCluster {
  id: string;
  workspaceId: string;
  name: string;
  tokenHash: string;
  limitedAgentPermission: boolean;
  allowedNamespaces: string[];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** SQL of the agent gateway: token look-up, the hello's facts, batched heartbeats. */
export class AgentGatewayStore {
  constructor(private readonly db: AppDb) {}

  /** The cluster whose live (not revoked, not detached) token hashes to `tokenHash`. */
  async clusterByTokenHash(tokenHash: string): Promise<AgentCluster | null> {
    const [row] = await this.db
      .select({
        id: clusters.id,
        workspaceId: clusters.workspaceId,
        name: clusters.name,
        tokenHash: clusters.tokenHash,
        status: clusters.status,
        limitedAgentPermission: clusters.limitedAgentPermission,
        allowedNamespaces: clusters.allowedNamespaces,
      })
      .from(clusters)
      .where(and(eq(clusters.tokenHash, tokenHash), isNull(clusters.tokenRevokedAt)))
      .limit(1);
    if (!row || !row.tokenHash || row.status === 'detached') return null;
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      name: row.name,
      tokenHash: row.tokenHash,
      limitedAgentPermission: row.limitedAgentPermission,
      allowedNamespaces: Array.isArray(row.allowedNamespaces) ? (row.allowedNamespaces as string[]) : [],
    };
  }

  /** Records the facts of a hello and marks the cluster active. */
  async recordHello(clusterId: string, hello: AgentHello, at: Date): Promise<void> {
    await this.db
      .update(clusters)
      .set({
        agentVersion: hello.agentVersion,
        kubernetesVersion: hello.kubernetesVersion,
        nodeCount: hello.nodeCount,
        totalVcpu: hello.totalVcpu,
        namespaces: hello.namespaces,
        installedResources: addOnIdsOf(hello.installedAddons),
        storageOptions: hello.storageClasses,
        // the column holds whole seconds; the sweeper allows three of them
        heartbeatSeconds: Math.max(1, Math.ceil(hello.heartbeatSeconds)),
        status: 'active',
        statusMessage: null,
        connectedAt: at,
        lastHeartbeatAt: at,
        updatedAt: at,
      })
      .where(eq(clusters.id, clusterId));
  }

  /**
   * Writes many heartbeats in one statement. A cluster that was marked not active comes back to
   * active. Returns the ids whose token is still the one the agent connected with (the others were
   * revoked or replaced, and their agents must go).
   */
  async recordHeartbeats(beats: { clusterId: string; tokenHash: string; at: Date }[]): Promise<Set<string>> {
    if (beats.length === 0) return new Set();
    const values = sql.join(
      beats.map((b) => sql`(${b.clusterId}, ${b.tokenHash}, ${b.at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    const rows = rowsOf<{ id: string }>(
      await this.db.execute(sql`
        UPDATE clusters SET last_heartbeat_at = GREATEST(clusters.last_heartbeat_at, v.at),
          status = CASE WHEN clusters.status = 'not_active' THEN 'active' ELSE clusters.status END,
          status_message = CASE WHEN clusters.status = 'not_active' THEN NULL ELSE clusters.status_message END
        FROM (VALUES ${values}) AS v(id, token_hash, at)
        WHERE clusters.id = v.id AND clusters.token_hash = v.token_hash AND clusters.token_revoked_at IS NULL
          AND clusters.status <> 'detached'
        RETURNING clusters.id`),
    );
    return new Set(rows.map((r) => r.id));
  }
}
