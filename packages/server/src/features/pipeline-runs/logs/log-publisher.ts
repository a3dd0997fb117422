import type { TaskFinish } from '../task-store.js';
import { encodeChunk, type StoredLine } from './chunk-codec.js';
import type { LogChunk, LogHub } from './log-hub.js';

/** What the publisher needs from the database. */
export interface LogSink {
  /** Stores a chunk and answers its id; with `notify`, also sends that NOTIFY payload prefix + id. */
  appendLog(runId: string, taskRunId: string, lines: StoredLine[], notify?: string): Promise<number>;
  notify(payload: string): Promise<void>;
  /** The seq of the last line stored of a task run, 0 when none. */
  lastLogSeq(taskRunId: string): Promise<number>;
}

/** Writes the ends of task runs of one run, answering task run id → id of its last chunk. */
export type FinishStore = (
  runId: string,
  ends: TaskFinish[],
  notify: { chunk: string; end: string } | undefined,
) => Promise<Map<string, number>>;

/**
 * How long a task's end waits for the ends of the run's other running tasks before its statement
 * is written, when others are running: a fan-out's ends then share a few statements instead of
 * one each (on PGlite each statement costs the server's only thread 2–4 ms). A task that is the
 * run's last one running does not wait.
 */
export const FINISH_GATHER_MS = 50;

/**
 * Stores a run's log chunks one at a time (so a run's chunk ids grow in the order they were
 * written, in every process) and tells the subscribers: in this process through the hub, in
 * others by NOTIFY (PostgreSQL only; `origin` lets a process ignore its own notifications).
 */
export class LogPublisher {
  private readonly chains = new Map<string, Promise<unknown>>();
  /** Per run, the task ends waiting for their statement (they join it until it starts). */
  private readonly finishing = new Map<
    string,
    { ends: TaskFinish[]; done: Promise<void>; flushNow: () => void }
  >();

  constructor(
    private readonly sink: LogSink,
    private readonly hub: LogHub,
    /** null: no NOTIFY (PGlite: one process). */
    private readonly origin: string | null,
  ) {}

  /** Where a task run's stored log ends (the seq of its last line, 0 when none): a resumed task writes only lines after it. */
  lastSeq(taskRunId: string): Promise<number> {
    return this.sink.lastLogSeq(taskRunId);
  }

  append(runId: string, taskRunId: string, lines: StoredLine[]): Promise<void> {
    if (lines.length === 0) return Promise.resolve();
    return this.serial(runId, async () => {
      const notify = this.origin === null ? undefined : `${this.origin} c ${runId} `;
      const id = await this.sink.appendLog(runId, taskRunId, lines, notify);
      const chunk: LogChunk = { id, runId, taskRunId, columns: encodeChunk(lines) };
      this.hub.publish(runId, { kind: 'chunk', chunk });
    });
  }

  /**
   * A task run finished: its last lines (maybe none) and its end state are written by `store`,
   * after every chunk written before, together with the ends of the run's other task runs that
   * finished meanwhile (one statement for all of them, NOTIFYs included), then the subscribers
   * here are told of the chunks and of the ends. With `gather` (other tasks of the run are still
   * running) a new batch waits up to FINISH_GATHER_MS for their ends; an end without it writes
   * the batch at once.
   */
  finishTask(runId: string, end: TaskFinish, store: FinishStore, gather = false): Promise<void> {
    let batch = this.finishing.get(runId);
    if (!batch) {
      const ends: TaskFinish[] = [];
      let flushNow = () => {};
      const gathered = gather
        ? new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, FINISH_GATHER_MS);
            flushNow = () => {
              clearTimeout(timer);
              resolve();
            };
          })
        : undefined;
      const opened = {
        ends,
        flushNow: () => flushNow(),
        done: this.serial(runId, async () => {
          await gathered;
          this.finishing.delete(runId);
          const notify =
            this.origin === null
              ? undefined
              : { chunk: `${this.origin} c ${runId} `, end: `${this.origin} e ${runId} ` };
          const ids = await store(runId, ends, notify);
          const chunks = ends
            .filter((e) => e.lines.length > 0 && ids.has(e.taskRunId))
            .map((e) => ({
              id: ids.get(e.taskRunId)!,
              runId,
              taskRunId: e.taskRunId,
              columns: encodeChunk(e.lines),
            }))
            .sort((x, y) => x.id - y.id);
          for (const chunk of chunks) this.hub.publish(runId, { kind: 'chunk', chunk });
          for (const e of ends) this.hub.publish(runId, { kind: 'end', taskRunId: e.taskRunId });
        }),
      };
      this.finishing.set(runId, opened);
      batch = opened;
    }
    batch.ends.push(end);
    if (!gather) batch.flushNow();
    return batch.done;
  }

  /** A task run (or, with null, the run) finished: after every chunk written before it. */
  end(runId: string, taskRunId: string | null): Promise<void> {
    return this.serial(runId, async () => {
      this.hub.publish(runId, { kind: 'end', taskRunId });
      if (this.origin !== null) await this.sink.notify(`${this.origin} e ${runId} ${taskRunId ?? ''}`);
      if (taskRunId === null) this.chains.delete(runId);
    });
  }

  private serial(runId: string, fn: () => Promise<void>): Promise<void> {
    const next = (this.chains.get(runId) ?? Promise.resolve()).then(fn);
    this.chains.set(
      runId,
      next.catch(() => undefined),
    );
    return next;
  }
}
