import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { FINISHED_RUN_STATUSES } from '@slipway/contracts';
import type { AppDb } from '../../../platform/database/database.js';
import { clusters, environments, pipelineRuns } from '../../../platform/database/schema.js';
import type { AgentGateway } from '../../agent-gateway/agent-gateway.js';
import { RUN_LABEL } from './kubernetes-executor-pod.js';

/**
 * Removes the workspace claims of runs that have ended. A run's tasks share their workspaces
 * through PersistentVolumeClaims labelled with the run; every interval this lists them in each
 * namespace an environment binds on an active cluster and deletes those whose run has finished
 * (or no longer exists).
 */
export class WorkspaceClaimsReaper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: AppDb,
    private readonly gateway: AgentGateway,
    private readonly intervalMs: number,
    private readonly log: { error(obj: object, msg: string): void },
  ) {}

  /** One round; answers the claims deleted, as namespace/name. */
  async reap(): Promise<string[]> {
    const targets = await this.db
      .selectDistinct({ clusterId: environments.clusterId, namespace: environments.namespace })
      .from(environments)
      .innerJoin(clusters, eq(clusters.id, environments.clusterId))
      .where(and(eq(clusters.status, 'active'), isNotNull(environments.namespace)));
    const deleted: string[] = [];
    for (const { clusterId, namespace } of targets) {
      if (!clusterId || !namespace || !this.gateway.isConnected(clusterId)) continue;
      try {
        const { items } = await this.gateway.request(clusterId, {
          kind: 'list',
          args: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace, labelSelector: RUN_LABEL },
        });
        const byRun = new Map<string, string[]>();
        for (const pvc of items) {
          const run = (pvc.metadata as { labels?: Record<string, string> }).labels?.[RUN_LABEL];
          if (run) byRun.set(run, [...(byRun.get(run) ?? []), pvc.metadata.name]);
        }
        if (byRun.size === 0) continue;
        const live = await this.db
          .select({ id: pipelineRuns.id, status: pipelineRuns.status })
          .from(pipelineRuns)
          .where(inArray(pipelineRuns.id, [...byRun.keys()]));
        const running = new Set(
          live
            .filter((r) => !(FINISHED_RUN_STATUSES as readonly string[]).includes(r.status))
            .map((r) => r.id),
        );
        for (const [run, names] of byRun) {
          if (running.has(run)) continue;
          for (const name of names) {
            await this.gateway.request(clusterId, {
              kind: 'delete',
              args: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name, namespace },
            });
            deleted.push(`${namespace}/${name}`);
          }
        }
      } catch (err) {
        this.log.error({ err, clusterId, namespace }, 'workspace claims could not be cleaned up');
      }
    }
    return deleted;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reap(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
