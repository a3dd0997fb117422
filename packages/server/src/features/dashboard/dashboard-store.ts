import { and, count, desc, eq, gte } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { clusters, deployments, pipelineRuns, pipelines } from '../../platform/database/schema.js';

/** The dashboard's reads: counts and the latest rows of a workspace, across areas (read only). */
export class DashboardStore {
  constructor(private readonly db: AppDb) {}

  private async total(query: Promise<Array<{ n: number }>>): Promise<number> {
    return Number((await query)[0]?.n ?? 0);
  }

  /** What the getting-started checklist reads: how many of each the workspace has. */
  async counts(workspaceId: string) {
    const [activeClusters, pipelineCount, runCount, deploymentCount] = await Promise.all([
      this.total(
        this.db
          .select({ n: count() })
          .from(clusters)
          .where(and(eq(clusters.workspaceId, workspaceId), eq(clusters.status, 'active'))),
      ),
      this.total(
        this.db
          .select({ n: count() })
          .from(pipelines)
          // the workspace's pipelines: not templates, not the ad-hoc ones of run documents
          .where(and(eq(pipelines.workspaceId, workspaceId), eq(pipelines.kind, 'pipeline'))),
      ),
      this.total(
        this.db.select({ n: count() }).from(pipelineRuns).where(eq(pipelineRuns.workspaceId, workspaceId)),
      ),
      this.total(
        this.db.select({ n: count() }).from(deployments).where(eq(deployments.workspaceId, workspaceId)),
      ),
    ]);
    return { activeClusters, pipelineCount, runCount, deploymentCount };
  }

  /** Runs queued since `since`, counted by status. */
  async runsByStatus(workspaceId: string, since: Date): Promise<Array<{ status: string; n: number }>> {
    const rows = await this.db
      .select({ status: pipelineRuns.status, n: count() })
      .from(pipelineRuns)
      .where(and(eq(pipelineRuns.workspaceId, workspaceId), gte(pipelineRuns.queuedAt, since)))
      .groupBy(pipelineRuns.status);
    return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
  }

  recentRuns(workspaceId: string, limit: number) {
    return this.db
      .select({
        id: pipelineRuns.id,
        name: pipelineRuns.name,
        pipelineId: pipelineRuns.pipelineId,
        pipelineName: pipelines.name,
        status: pipelineRuns.status,
        trigger: pipelineRuns.trigger,
        queuedAt: pipelineRuns.queuedAt,
        finishedAt: pipelineRuns.finishedAt,
      })
      .from(pipelineRuns)
      .innerJoin(pipelines, eq(pipelines.id, pipelineRuns.pipelineId))
      .where(eq(pipelineRuns.workspaceId, workspaceId))
      .orderBy(desc(pipelineRuns.queuedAt))
      .limit(limit);
  }

  clusters(workspaceId: string) {
    return this.db
      .select({
        id: clusters.id,
        name: clusters.name,
        status: clusters.status,
        nodeCount: clusters.nodeCount,
        lastHeartbeatAt: clusters.lastHeartbeatAt,
      })
      .from(clusters)
      .where(eq(clusters.workspaceId, workspaceId))
      .orderBy(clusters.name)
      .limit(100);
  }
}
