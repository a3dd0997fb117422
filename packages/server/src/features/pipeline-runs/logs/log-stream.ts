import { FINISHED_RUN_STATUSES, type LogStreamFrame } from '@slipway/contracts';
import { decodeChunk, encodeChunk, lineCount, type EncodedChunk, type StoredLine } from './chunk-codec.js';
import type { LogChunk, LogEvent, LogHub } from './log-hub.js';

export interface StreamTaskRun {
  id: string;
  name: string;
  pipelineTask: string;
  status: string;
}

/** What a stream reads from the database. */
export interface LogStreamSource {
  taskRuns(runId: string): Promise<StreamTaskRun[]>;
  /** The run's chunks with an id above `afterId`, in id order, at most `limit`. */
  chunksAfter(runId: string, afterId: number, limit: number): Promise<LogChunk[]>;
  runStatus(runId: string): Promise<string | undefined>;
}

/** The part of a WebSocket the stream uses. */
export interface LogSocket {
  readonly bufferedAmount: number;
  /** A text frame (a Buffer holds its UTF-8, encoded once for every socket that sends it). */
  send(data: string | Buffer, options: { binary: boolean }): void;
  close(code?: number, reason?: string): void;
}

export interface LogStreamOptions {
  task?: string | undefined;
  step?: string | undefined;
  offset: number;
  /** Re-read the run and its chunks this often, whatever the notifications say. */
  pollMs?: number;
  /** Above this many bytes waiting in the socket, stop taking live chunks and read them back later. */
  highWater?: number;
  pageChunks?: number;
  onError?: (error: unknown) => void;
}

const FINISHED_TASK = new Set(['succeeded', 'failed', 'timed_out', 'cancelled', 'skipped']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One socket following one run's log: a backfill from the database from any offset, then live
 * chunks from the hub, then an end frame once the run (or the selected task) has finished.
 * Chunks are taken in id order and each at most once, so nothing is lost or repeated when live
 * chunks overlap a read. A socket that cannot keep up drops live chunks and reads them back from
 * the database once it has drained, so a slow reader never holds the log in memory.
 */
export class LogStream {
  private lastChunk = 0;
  /** Lines of the selection seen so far (sent or skipped by the offset). */
  private position = 0;
  private readonly tasks = new Map<string, StreamTaskRun>();
  private chain: Promise<void> = Promise.resolve();
  private mode: 'reading' | 'live' = 'reading';
  private missed = false;
  private pokeQueued = false;
  private closed = false;
  private unsubscribe: (() => void) | undefined;
  private readonly listener = (event: LogEvent) => this.onEvent(event);
  private timer: NodeJS.Timeout | undefined;
  private readonly pollMs: number;
  private readonly highWater: number;
  private readonly pageChunks: number;

  constructor(
    private readonly source: LogStreamSource,
    private readonly hub: LogHub,
    private readonly socket: LogSocket,
    private readonly runId: string,
    private readonly options: LogStreamOptions,
  ) {
    this.pollMs = options.pollMs ?? 2000;
    this.highWater = options.highWater ?? 4 * 1024 * 1024;
    this.pageChunks = options.pageChunks ?? 20;
  }

  /** Subscribes, then reads what is stored; resolves once the backfill has been sent. */
  start(): Promise<void> {
    this.unsubscribe = this.hub.subscribe(this.runId, this.listener);
    this.timer = setInterval(() => this.enqueue(() => this.check()), this.pollMs);
    this.timer.unref();
    return this.enqueue(() => this.check());
  }

  stop(): void {
    this.closed = true;
    this.unsubscribe?.();
    clearInterval(this.timer);
  }

  /** Waits for everything queued so far (tests). */
  settled(): Promise<void> {
    return this.chain;
  }

  private enqueue(fn: () => Promise<void> | void): Promise<void> {
    const next = this.chain.then(async () => {
      if (!this.closed) await fn();
    });
    this.chain = next.catch((error: unknown) => this.fail(error));
    return this.chain;
  }

  private onEvent(event: LogEvent): void {
    if (this.closed) return;
    if (event.kind === 'chunk') {
      if (this.mode === 'reading') {
        this.missed = true;
        return;
      }
      if (this.socket.bufferedAmount > this.highWater) {
        this.mode = 'reading';
        this.missed = true;
        this.enqueue(() => this.drainThenRead());
        return;
      }
      this.enqueue(() => this.take(event.chunk));
    } else if (event.kind === 'poke') {
      if (this.pokeQueued) return;
      this.pokeQueued = true;
      this.enqueue(() => {
        this.pokeQueued = false;
        return this.read();
      });
    } else {
      const ours = event.taskRunId === null || !this.options.task || this.tasks.has(event.taskRunId);
      if (ours) this.enqueue(() => this.check());
    }
  }

  private async drainThenRead(): Promise<void> {
    await this.drained();
    await this.read();
  }

  private async drained(): Promise<void> {
    while (!this.closed && this.socket.bufferedAmount > this.highWater / 4) await sleep(10);
  }

  /** Reads every stored chunk past the last one taken, then goes live. */
  private async read(): Promise<void> {
    for (;;) {
      this.mode = 'reading';
      this.missed = false;
      const page =
        this.hub.recent(this.runId, this.lastChunk, this.pageChunks) ??
        (await this.hub.page(this.runId, this.lastChunk, this.pageChunks, () =>
          this.source.chunksAfter(this.runId, this.lastChunk, this.pageChunks),
        ));
      for (const chunk of page) await this.take(chunk);
      if (this.closed) return;
      if (page.length >= this.pageChunks) {
        await this.drained();
        continue;
      }
      if (this.missed) continue;
      this.mode = 'live';
      return;
    }
  }

  /** The status first, then the chunks: a finished run's chunks were all stored before it finished. */
  private async check(): Promise<void> {
    const status = await this.source.runStatus(this.runId);
    await this.refreshTasks();
    await this.read();
    if (this.closed) return;
    const runDone = status === undefined || FINISHED_RUN_STATUSES.includes(status as never);
    if (!this.options.task) {
      if (runDone) this.finish(status ?? 'cancelled');
      return;
    }
    const matched = this.matchedTasks();
    const taskDone = matched.length > 0 && matched.every((t) => FINISHED_TASK.has(t.status));
    if (taskDone || (runDone && matched.length > 0)) {
      this.finish(matched.find((t) => t.status !== 'succeeded')?.status ?? 'succeeded');
    } else if (runDone) {
      this.send({ type: 'error', message: `The run has no task "${this.options.task}"` });
      this.close(1000);
    }
  }

  private matchedTasks(): StreamTaskRun[] {
    const task = this.options.task;
    return [...this.tasks.values()].filter((t) => t.name === task || t.pipelineTask === task);
  }

  private async refreshTasks(): Promise<void> {
    for (const t of await this.source.taskRuns(this.runId)) this.tasks.set(t.id, t);
  }

  private async take(chunk: LogChunk): Promise<void> {
    if (chunk.id <= this.lastChunk || this.closed) return;
    this.lastChunk = chunk.id;
    this.hub.progress(this.runId, this.listener, chunk.id);
    if (!this.tasks.has(chunk.taskRunId)) await this.refreshTasks();
    const taskRun = this.tasks.get(chunk.taskRunId);
    const task = taskRun?.name ?? chunk.taskRunId;
    if (
      this.options.task &&
      taskRun?.name !== this.options.task &&
      taskRun?.pipelineTask !== this.options.task
    )
      return;
    const step = this.options.step;
    const key = step ?? '';
    chunk.frames ??= new Map();
    let frame = chunk.frames.get(key);
    const whole = !step || onlyStep(chunk.columns, step);
    if (!frame) {
      if (whole) frame = { count: lineCount(chunk.columns), json: columnsOf(chunk.columns) };
      else {
        const lines = decodeChunk(chunk.columns).filter((l) => l.step === step);
        frame = { count: lines.length, json: columnsJson(lines) };
      }
      chunk.frames.set(key, frame);
    }
    const from = this.position;
    this.position += frame.count;
    if (frame.count === 0 || this.position <= this.options.offset) return;
    if (from >= this.options.offset) {
      // the sockets following a run mostly send the same frame: its bytes are made once
      if (frame.wire?.task !== task || frame.wire.from !== from) {
        const json = `{"type":"lines","task":${JSON.stringify(task)},"from":${from},${frame.json}}`;
        frame.wire = { task, from, data: Buffer.from(json) };
      }
      this.socket.send(frame.wire.data, { binary: false });
      return;
    }
    const all = decodeChunk(chunk.columns);
    const lines = (whole ? all : all.filter((l) => l.step === step)).slice(this.options.offset - from);
    this.socket.send(
      `{"type":"lines","task":${JSON.stringify(task)},"from":${this.options.offset},${columnsJson(lines)}}`,
      { binary: false },
    );
  }

  private finish(status: string): void {
    this.send({ type: 'end', status, next: Math.max(this.position, this.options.offset) });
    this.close(1000);
  }

  private send(frame: LogStreamFrame): void {
    if (!this.closed) this.socket.send(JSON.stringify(frame), { binary: false });
  }

  private close(code: number, reason?: string): void {
    if (this.closed) return;
    this.stop();
    this.socket.close(code, reason);
  }

  private fail(error: unknown): void {
    if (this.closed) return;
    this.send({ type: 'error', message: 'The log could not be read' });
    this.close(1011);
    this.options.onError?.(error);
  }
}

/** `"runs":…,"at":…,"text":…` of a frame (logLinesColumnsSchema), from stored lines. */
function columnsJson(lines: readonly StoredLine[]): string {
  return columnsOf(encodeChunk(lines));
}

/** The same, from a chunk's columns (which are the frame's columns when every line is selected). */
function columnsOf({ runs, at, text }: EncodedChunk): string {
  return `"runs":${JSON.stringify(runs)},"at":${JSON.stringify(at)},"text":${JSON.stringify(text)}`;
}

/** Whether every line of the chunk is of this step. */
function onlyStep(columns: EncodedChunk, step: string): boolean {
  for (let r = 0; r < columns.runs.length; r += 3) if (columns.runs[r] !== step) return false;
  return true;
}
