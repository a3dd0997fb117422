import type { StoredLine } from '../task-store.js';

/** One stored chunk of a task run's log lines (a row of log_chunks). */
export interface LogChunk {
  id: number;
  runId: string;
  taskRunId: string;
  lines: StoredLine[];
  /** Frames already serialised for a selection, shared by every subscriber with that selection. */
  frames?: Map<string, { count: number; json: string }>;
}

export type LogEvent =
  /** A chunk this process stored (the lines come along). */
  | { kind: 'chunk'; chunk: LogChunk }
  /** Another process stored chunks of the run: read them from log_chunks. */
  | { kind: 'poke' }
  /** A task run (taskRunId) or the whole run (null) finished. */
  | { kind: 'end'; taskRunId: string | null };

export type LogListener = (event: LogEvent) => void;

/** Lines of a run's latest chunks the hub keeps for sockets that fell behind. */
export const RECENT_LINES = 100_000;

interface Recent {
  chunks: LogChunk[];
  /** Every chunk of the run with an id above this is in `chunks`. */
  floor: number;
  lines: number;
}

/**
 * In-process fan-out of run log events to the sockets that follow the run. While a run has
 * followers, its latest chunks (up to RECENT_LINES lines) are kept, so a socket that fell behind
 * catches up from memory, sharing the serialised frames, instead of reading the database.
 */
export class LogHub {
  private readonly listeners = new Map<string, Set<LogListener>>();
  private readonly recentChunks = new Map<string, Recent>();

  subscribe(runId: string, listener: LogListener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(runId) === set) {
        this.listeners.delete(runId);
        this.recentChunks.delete(runId);
      }
    };
  }

  has(runId: string): boolean {
    return this.listeners.has(runId);
  }

  get subscribers(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  /**
   * The kept chunks after `afterId` (at most `limit`), or undefined when the kept ones do not
   * reach back that far (read the database then).
   */
  recent(runId: string, afterId: number, limit: number): LogChunk[] | undefined {
    const recent = this.recentChunks.get(runId);
    if (!recent || afterId < recent.floor) return undefined;
    const out: LogChunk[] = [];
    for (const chunk of recent.chunks) {
      if (chunk.id <= afterId) continue;
      out.push(chunk);
      if (out.length >= limit) break;
    }
    return out;
  }

  publish(runId: string, event: LogEvent): void {
    const set = this.listeners.get(runId);
    if (!set) return;
    if (event.kind === 'chunk') this.keep(runId, event.chunk);
    for (const listener of [...set]) listener(event);
  }

  private keep(runId: string, chunk: LogChunk): void {
    let recent = this.recentChunks.get(runId);
    if (!recent) this.recentChunks.set(runId, (recent = { chunks: [], floor: chunk.id - 1, lines: 0 }));
    recent.chunks.push(chunk);
    recent.lines += chunk.lines.length;
    while (recent.lines > RECENT_LINES && recent.chunks.length > 1) {
      const old = recent.chunks.shift()!;
      recent.lines -= old.lines.length;
      recent.floor = old.id;
    }
  }
}
