import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { healthMessage } from './deploy-executor.js';
import type { DeploymentsStore } from './deployments-store.js';

export interface TrackerLog {
  error(obj: object, msg: string): void;
}

/**
 * Keeps deployed applications' health current: every interval it asks the clusters' agents for
 * the health of the deployments checked longest ago (on active clusters) and stores it.
 */
export class HealthTracker {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly store: DeploymentsStore,
    private readonly gateway: AgentGateway,
    private readonly intervalMs: number,
    private readonly log: TrackerLog,
  ) {}

  /** One round: answers how many deployments were checked. */
  async check(now = new Date(), batch = 50): Promise<number> {
    const due = await this.store.due(new Date(now.getTime() - this.intervalMs + 1), batch);
    let checked = 0;
    for (const d of due) {
      if (!this.gateway.isConnected(d.clusterId)) continue;
      try {
        const resources = Array.isArray(d.resources) ? (d.resources as never[]) : [];
        if (resources.length === 0) continue;
        const health = await this.gateway.request(d.clusterId, { kind: 'health', args: { resources } });
        await this.store.setHealth(d.id, health.status, healthMessage(health) || null);
        checked += 1;
      } catch (err) {
        this.log.error({ err, deploymentId: d.id }, 'health check failed');
      }
    }
    return checked;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.check()
        .catch((err: unknown) => this.log.error({ err }, 'health tracking failed'))
        .finally(() => (this.running = false));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
