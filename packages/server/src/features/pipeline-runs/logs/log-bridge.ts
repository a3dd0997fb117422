import pg from 'pg';
import type { LogHub } from './log-hub.js';
import { LOG_CHANNEL } from './log-store.js';

/**
 * Across server processes on one PostgreSQL: LISTENs on the log channel and turns other
 * processes' notifications into hub events (`poke`: read the new chunks from log_chunks; `end`).
 * Reconnects after a lost connection; sockets also re-read on a timer, so nothing is lost meanwhile.
 */
export class PgLogBridge {
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly hub: LogHub,
    private readonly origin: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => this.receive(message.payload ?? ''));
    client.on('error', (error) => {
      this.onError(error);
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    this.client = client;
    await client.connect();
    await client.query(`LISTEN ${LOG_CHANNEL}`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private reconnect(client: pg.Client): void {
    if (this.stopped || this.client !== client) return;
    this.client = undefined;
    this.retry = setTimeout(() => void this.start().catch((e: unknown) => this.onError(e)), 1000);
    this.retry.unref();
  }

  private receive(payload: string): void {
    const [origin, kind, runId, arg] = payload.split(' ');
    if (!runId || origin === this.origin || !this.hub.has(runId)) return;
    if (kind === 'c') this.hub.publish(runId, { kind: 'poke' });
    else if (kind === 'e') this.hub.publish(runId, { kind: 'end', taskRunId: arg || null });
  }
}
