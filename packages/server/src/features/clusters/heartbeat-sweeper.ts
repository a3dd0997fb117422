import { AGENT_MISSED_HEARTBEATS_LIMIT, MESSAGES } from '@slipway/contracts';
import type { ClustersStore } from './clusters-store-type.js';

export interface SweeperLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Marks clusters not active once their agent has missed three of its heartbeats in a row (each
 * cluster's own interval). The gateway makes them active again on the next heartbeat. Runs every
 * `sweepIntervalMs`; `sweep` is what one round does, for tests.
 */
export class HeartbeatSweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ClustersStore,
    private readonly sweepIntervalMs: number,
    private readonly log: SweeperLog,
  ) {}

  /**
   * Clusters silent since before now − 3 of their own agent's heartbeat intervals (the
   * `heartbeatSeconds` of its hello, stored on the cluster) become not active; answers their ids.
   */
  async sweep(now = new Date()): Promise<string[]> {
    const ids = await this.store.markSilent(now, AGENT_MISSED_HEARTBEATS_LIMIT, MESSAGES.agentNotActive);
    if (ids.length > 0) this.log.info({ clusters: ids }, 'clusters missed their heartbeats: not active');
    return ids;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.sweep().catch((err: unknown) => this.log.error({ err }, 'heartbeat sweep failed'));
    }, this.sweepIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
