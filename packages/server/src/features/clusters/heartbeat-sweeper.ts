import { AGENT_MISSED_HEARTBEATS_LIMIT, MESSAGES } from '@slipway/contracts';
import type { ClustersStore } from './clusters-store.js';

export interface SweeperLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Marks clusters not active once their agent has missed three heartbeats in a row. The gateway
 * makes them active again on the next heartbeat. Runs every heartbeat interval; `sweep` is
 * what one round does, for tests.
 */
export class HeartbeatSweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ClustersStore,
    private readonly heartbeatIntervalMs: number,
    private readonly log: SweeperLog,
  ) {}

  /** Clusters silent since before now − 3 intervals become not active; answers their ids. */
  async sweep(now = new Date()): Promise<string[]> {
    const cutoff = new Date(now.getTime() - AGENT_MISSED_HEARTBEATS_LIMIT * this.heartbeatIntervalMs);
    const ids = await this.store.markSilent(cutoff, MESSAGES.agentNotActive);
    if (ids.length > 0) this.log.info({ clusters: ids }, 'clusters missed their heartbeats: not active');
    return ids;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.sweep().catch((err: unknown) => this.log.error({ err }, 'heartbeat sweep failed'));
    }, this.heartbeatIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
