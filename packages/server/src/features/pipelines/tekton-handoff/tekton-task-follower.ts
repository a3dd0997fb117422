import { randomUUID } from 'node:crypto';
import type { AgentGateway, AgentStreamHandle } from '../../agent-gateway/agent-gateway.js';
import { LogBuffer } from '../../pipeline-runs/log-buffer.js';
import type { LogPublisher } from '../../pipeline-runs/logs/log-publisher.js';
import type { StoredLine } from '../../pipeline-runs/logs/chunk-codec.js';
import type { StepEnd, TaskStore } from '../../pipeline-runs/task-store.js';
import { LineSplitter } from '../executor/line-splitter.js';
import type { SecretMasker } from '../executor/secret-masker.js';
import type { PlannedTask } from './pipeline-run-object.js';
import { stepStates, taskRunEnd, type TektonObject } from './tekton-status.js';

/** How long a finished TaskRun's log streams may take to deliver their last lines. */
export const LOG_DRAIN_MS = 2000;

export interface FollowerContext {
  runId: string;
  clusterId: string;
  namespace: string;
  gateway: AgentGateway;
  tasks: TaskStore;
  logs: LogPublisher;
  masker: SecretMasker;
  onError: (error: unknown) => void;
}

/** A task run row that exists already (a resumed run): its id, and whether it has ended. */
export interface KnownRow {
  id: string;
  ended: boolean;
}

/**
 * Follows one TaskRun of a handed-off run into Slipway's records: its task run row (started when
 * it is first seen), its steps' states, its Pod's step containers' logs into the run's live logs,
 * and its end (steps, results and last lines in one statement, as the engine writes them).
 */
export class TaskRunFollower {
  private id: string | undefined;
  private ended = false;
  private storedSeq = 0;
  private buffer: LogBuffer | undefined;
  private readonly streams = new Map<string, { handle?: AgentStreamHandle; done: Promise<void> }>();
  private readonly running = new Set<string>();
  private lineCount = 0;
  private closed = false;
  /** Lines taken from each step container's log so far, by `<pod>/<container>`. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ctx: FollowerContext,
    readonly name: string,
    readonly pipelineTask: string,
    private readonly planned: PlannedTask | undefined,
    known: KnownRow | undefined,
  ) {
    if (known) {
      this.id = known.id;
      this.ended = known.ended;
    }
  }

  /** Why the TaskRun failed, once it has. */
  failure: string | undefined;

  get done(): boolean {
    return this.ended;
  }

  get taskRunId(): string | undefined {
    return this.id;
  }

  /** Takes in the TaskRun as the watch last saw it. */
  async update(tr: TektonObject): Promise<void> {
    if (this.ended) return;
    await this.ensureRow(tr);
    const pod = tr.status?.podName;
    for (const step of stepStates(tr)) {
      if (step.started && pod) this.follow(pod, step.name, step.container);
      if (step.started && !step.end && !this.running.has(step.name)) {
        this.running.add(step.name);
        await this.ctx.tasks.stepState(this.id!, step.name, 'running');
      }
    }
    const end = taskRunEnd(tr);
    if (!end) return;
    this.ended = true;
    if (end.status === 'failed') this.failure = end.reason;
    const steps = this.stepEnds(tr);
    const lines = await this.drain();
    await this.ctx.logs.finishTask(
      this.ctx.runId,
      { taskRunId: this.id!, status: end.status, reason: end.reason, results: end.results, steps, lines },
      (runId, ends, notify) => this.ctx.tasks.finishTasks(runId, ends, notify),
    );
  }

  /** Stops following (the run ended, or the engine is stopping) without writing an end. */
  close(): void {
    this.closed = true;
    for (const s of this.streams.values()) s.handle?.close();
  }

  private async ensureRow(tr: TektonObject): Promise<void> {
    if (this.id && this.buffer) return;
    const steps = this.planned?.steps ?? stepStates(tr).map((s) => ({ name: s.name, image: '' }));
    if (!this.id) {
      const start = {
        runId: this.ctx.runId,
        name: this.name,
        pipelineTask: this.pipelineTask,
        isFinally: this.planned?.isFinally ?? false,
      };
      const started = await this.ctx.tasks.startTaskRun(randomUUID(), start, steps);
      this.id = started.id;
      if (!started.inserted) await this.ctx.tasks.initSteps(started.id, steps);
    } else {
      // a resumed run: the lines stored before are not written again
      this.storedSeq = await this.ctx.logs.lastSeq(this.id);
    }
    const id = this.id;
    const offset = this.storedSeq;
    const shift = (lines: StoredLine[]) => lines.map((l) => ({ ...l, seq: l.seq + offset }));
    this.buffer = new LogBuffer(
      (lines) => this.ctx.logs.append(this.ctx.runId, id, shift(lines)),
      this.ctx.onError,
    );
    this.shift = shift;
  }

  private shift: (lines: StoredLine[]) => StoredLine[] = (lines) => lines;

  /**
   * Follows a step container's log. A stream that fails (the agent went away) is forgotten, so
   * the TaskRun's next status (the watch lists again once the agent is back) follows it again
   * from its start; the lines this container gave already are skipped.
   */
  private follow(pod: string, step: string, container: string): void {
    // by Pod too: a retry (retries) runs in a new Pod, `<task run>-pod-retry<N>`
    const key = `${pod}/${container}`;
    if (this.streams.has(key)) return;
    const entry: { handle?: AgentStreamHandle; done: Promise<void> } = { done: Promise.resolve() };
    this.streams.set(key, entry);
    let skip = this.seen.get(key) ?? 0;
    const splitter = new LineSplitter((text) => {
      if (skip > 0) {
        skip -= 1;
        return;
      }
      this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
      this.lineCount += 1;
      if (this.lineCount <= this.storedSeq) return;
      this.buffer!.push({
        step,
        stream: 'stdout',
        text: this.ctx.masker.mask(text),
        at: new Date(),
        seq: 0,
        attempt: 1,
      });
    });
    const failed = (error: unknown) => {
      if (this.closed) return; // stopped here
      this.streams.delete(key);
      this.buffer!.push({
        step,
        stream: 'system',
        text: `logs of ${pod}/${container} interrupted: ${(error as Error).message}`,
        at: new Date(),
        seq: 0,
        attempt: 1,
      });
    };
    entry.done = this.ctx.gateway
      .stream(
        this.ctx.clusterId,
        { kind: 'logs', args: { namespace: this.ctx.namespace, pod, container, follow: true } },
        (frame) => {
          if (typeof frame.data === 'string') splitter.push(Buffer.from(frame.data, 'utf8'));
        },
      )
      .then(async (handle) => {
        entry.handle = handle;
        await handle.done;
        splitter.flush();
      })
      .catch(failed);
  }

  /** Waits a little for the logs' last lines, stops the streams and answers the lines not stored yet. */
  private async drain(): Promise<StoredLine[]> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.streams.values()].map((s) => s.done)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, LOG_DRAIN_MS))),
    ]);
    clearTimeout(timer);
    this.close();
    return this.shift((await this.buffer?.takeRest()) ?? []);
  }

  /** The steps' ends; a step Tekton reports no end for ends as skipped (it never ran). */
  private stepEnds(tr: TektonObject): StepEnd[] {
    const seen = new Map(stepStates(tr).map((s) => [s.name, s.end] as const));
    const names = this.planned?.steps.map((s) => s.name) ?? [...seen.keys()];
    return names.map(
      (name) =>
        seen.get(name) ?? {
          name,
          status: 'skipped',
          exitCode: null,
          reason: '',
          startedAt: null,
          finishedAt: null,
        },
    );
  }
}
