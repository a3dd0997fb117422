import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { ResourceRef } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { clusters, deployments, environments } from '../../platform/database/schema.js';

export type DeploymentRow = typeof deployments.$inferSelect;

/** SQL for deployment records: one per application and environment, replaced by each rollout. */
export class DeploymentsStore {
  constructor(private readonly db: AppDb) {}

  async record(input: {
    workspaceId: string;
    environmentId: string;
    name: string;
    namespace: string;
    resources: ResourceRef[];
    image: string | null;
    runId: string | null;
    health: string;
    healthMessage: string | null;
  }): Promise<void> {
    const now = new Date();
    await this.db
      .insert(deployments)
      .values({ id: randomUUID(), ...input, deployedAt: now, healthCheckedAt: now })
      .onConflictDoUpdate({
        target: [deployments.environmentId, deployments.name],
        set: {
          namespace: input.namespace,
          resources: input.resources,
          image: input.image,
          runId: input.runId,
          health: input.health,
          healthMessage: input.healthMessage,
          deployedAt: now,
          healthCheckedAt: now,
        },
      });
  }

  async setHealth(id: string, health: string, message: string | null): Promise<void> {
    await this.db
      .update(deployments)
      .set({ health, healthMessage: message, healthCheckedAt: new Date() })
      .where(eq(deployments.id, id));
  }

  /** Deployments on active clusters whose health was last checked before the cut-off, oldest first. */
  async due(before: Date, limit: number): Promise<Array<DeploymentRow & { clusterId: string }>> {
    const rows = await this.db
      .select({ deployment: deployments, clusterId: clusters.id })
      .from(deployments)
      .innerJoin(environments, eq(environments.id, deployments.environmentId))
      .innerJoin(clusters, eq(clusters.id, environments.clusterId))
      .where(
        and(
          inArray(clusters.status, ['active']),
          or(isNull(deployments.healthCheckedAt), lt(deployments.healthCheckedAt, before)),
        ),
      )
      .orderBy(asc(deployments.healthCheckedAt))
      .limit(limit);
    return rows.map((r) => ({ ...r.deployment, clusterId: r.clusterId }));
  }
}
