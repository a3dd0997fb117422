import type { LogLine } from '../pipelines/executor/executor.js';
import type { StoredLine } from './logs/chunk-codec.js';

export const LOG_FLUSH_MS = 200;
export const LOG_FLUSH_LINES = 2000;

/**
 * Buffers one task run's log lines and hands them to `write` as chunks: every 200 ms, at 2,000
 * lines, and on close (at 2,000 lines a chunk is still a few tens of KB). Writes are serialised, so chunks land in sequence order.
 */
export class LogBuffer {
  private lines: StoredLine[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  /** Lines numbered across retries of this task run, from 1. */
  private seq = 0;

  constructor(
    private readonly write: (lines: StoredLine[]) => Promise<void>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  push(line: LogLine): void {
    this.seq += 1;
    this.lines.push({
      seq: this.seq,
      at: line.at.getTime(),
      stream: line.stream,
      step: line.step,
      text: line.text,
    });
    if (this.lines.length >= LOG_FLUSH_LINES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), LOG_FLUSH_MS);
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.lines;
    this.lines = [];
    if (batch.length > 0) this.chain = this.chain.then(() => this.write(batch)).catch(this.onError);
    return this.chain;
  }

  /** Waits for every write and answers the lines not written yet, which are no longer buffered. */
  async takeRest(): Promise<StoredLine[]> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain;
    const rest = this.lines;
    this.lines = [];
    return rest;
  }

  /** Flushes what is left and waits for every write. */
  close(): Promise<void> {
    return this.flush();
  }
}
