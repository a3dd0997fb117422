import { Lru } from '../../../platform/cache/lru.js';
import { lineCount, type EncodedChunk } from './chunk-codec.js';

/**
 * One stored chunk of a task run's log lines (a row of log_chunks). The lines are kept by column,
 * as they are stored: a few arrays rather than an object per line, which matters for the chunks
 * the hub keeps (hundreds of thousands of lines while a run prints fast).
 */
export interface LogChunk {
  id: number;
  runId: string;
  taskRunId: string;
  columns: EncodedChunk;
  /** Frames already serialised for a selection, shared by every subscriber with that selection. */
  frames?: Map<string, { count: number; json: string; wire?: { task: string; from: number; data: Buffer } }>;
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
/**
 * Beyond RECENT_LINES, chunks a socket following the run has not taken yet are kept too, up to
 * this many lines: a socket a little slower than the step catches up from memory (frames shared
 * with the others) instead of reading the database, which would slow the server for every socket.
 */
export const RECENT_LINES_HELD = 200_000;

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
  /**
   * Full pages of chunks that sockets read back from the database, per run by first id and size:
   * sockets that fell behind together read each page once and share its frames. A full page holds
   * every chunk of its range for good; a short one (the end of what was stored) is not kept.
   */
  private readonly pages = new Map<string, Lru<string, LogChunk[]>>();
  /** Per run, the last chunk id each socket has taken (see `progress`). */
  private readonly positions = new Map<string, Map<LogListener, number>>();

  subscribe(runId: string, listener: LogListener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      this.positions.get(runId)?.delete(listener);
      if (set.size === 0 && this.listeners.get(runId) === set) {
        this.listeners.delete(runId);
        this.recentChunks.delete(runId);
        this.positions.delete(runId);
        this.pages.delete(runId);
      }
    };
  }

  /** The page of the run's chunks after `afterId`: a full page read before, or `read` now. */
  async page(
    runId: string,
    afterId: number,
    limit: number,
    read: () => Promise<LogChunk[]>,
  ): Promise<LogChunk[]> {
    const key = `${afterId} ${limit}`;
    const kept = this.pages.get(runId)?.get(key);
    if (kept) return kept;
    const page = await read();
    if (page.length < limit || !this.listeners.has(runId)) return page;
    let pages = this.pages.get(runId);
    if (!pages) this.pages.set(runId, (pages = new Lru(8)));
    pages.set(key, page);
    return page;
  }

  /** A socket (by its listener) has taken the run's chunks up to `chunkId`. */
  progress(runId: string, listener: LogListener, chunkId: number): void {
    if (!this.listeners.get(runId)?.has(listener)) return;
    let positions = this.positions.get(runId);
    if (!positions) this.positions.set(runId, (positions = new Map()));
    positions.set(listener, chunkId);
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
    recent.lines += lineCount(chunk.columns);
    let behind = Infinity;
    for (const id of this.positions.get(runId)?.values() ?? []) behind = Math.min(behind, id);
    while (
      recent.chunks.length > 1 &&
      (recent.lines > RECENT_LINES_HELD || (recent.lines > RECENT_LINES && recent.chunks[0]!.id <= behind))
    ) {
      const old = recent.chunks.shift()!;
      recent.lines -= lineCount(old.columns);
      recent.floor = old.id;
    }
  }
}
