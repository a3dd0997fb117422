import { mkdir } from 'node:fs/promises';
import {
  resolveTaskRun,
  type GraphNode,
  type ParamValue,
  type PipelineTask,
  type SubstitutionContext,
  type TaskSpec,
} from '../pipelines/definition/index.js';
import type { Semaphore } from '../pipelines/executor/concurrency.js';
import type { Executor, TaskIo, TaskOutcome } from '../pipelines/executor/executor.js';
import { SecretMasker } from '../pipelines/executor/secret-masker.js';
import { LogBuffer } from './log-buffer.js';
import type { LogPublisher } from './logs/log-publisher.js';
import type { RunDirectory } from './run-directory.js';
import type { SecretSource } from './run-sources.js';
import { stoppedTaskStatus } from './run-status.js';
import type { RunRow } from './run-store.js';
import type { TaskStore } from './task-store.js';

export interface TaskEnd {
  ok: boolean;
  reason: string;
  results: Record<string, ParamValue>;
}

export interface TaskRunnerDeps {
  tasks: TaskStore;
  executor: Executor;
  semaphore: Semaphore;
  secrets: SecretSource;
  logs: LogPublisher;
  onError: (error: unknown, runId: string) => void;
}

/** What the driver tells a task run about the run around it. */
export interface RunState {
  signal: AbortSignal;
  stoppedBy(): 'timeout' | 'cancel' | undefined;
  detached(): boolean;
}

/**
 * Runs one (matrix-expanded) task of a run through the executor: its task run row, resolution of
 * every `$(...)`, the step rows, the log (masked for the run's secret files as well), and the end.
 */
export class TaskRunner {
  /** Secret values the run wrote as files; the executor masks the env ones itself. */
  readonly masker = new SecretMasker();

  constructor(
    private readonly deps: TaskRunnerDeps,
    private readonly run: RunRow,
    private readonly dir: RunDirectory,
    private readonly state: RunState,
  ) {}

  async run1(
    pt: PipelineTask,
    node: GraphNode,
    spec: TaskSpec,
    ctx: SubstitutionContext,
    workspaces: Record<string, string>,
  ): Promise<TaskEnd> {
    const { tasks } = this.deps;
    const resultsDir = this.dir.resultsDir(pt.name);
    await mkdir(resultsDir, { recursive: true });
    const taskRunId = await tasks.upsertTaskRun({
      runId: this.run.id,
      name: pt.name,
      pipelineTask: node.name,
      isFinally: node.isFinally,
      status: 'running',
    });
    let resolved;
    try {
      resolved = resolveTaskRun(pt, spec, {
        ...ctx,
        resultsDir,
        pipelineWorkspaces: workspaces,
        context: { ...ctx.context, taskRun: { name: `${this.run.name}-${pt.name}`, uid: taskRunId } },
      });
    } catch (error) {
      const reason = (error as Error).message;
      await tasks.finishTaskRun(taskRunId, { status: 'failed', reason, results: {}, attempts: 1 });
      await this.deps.logs.end(this.run.id, taskRunId);
      return { ok: false, reason, results: {} };
    }
    await tasks.initSteps(taskRunId, resolved.steps);
    const log = new LogBuffer(
      (lines) => this.deps.logs.append(this.run.id, taskRunId, lines),
      (error) => this.deps.onError(error, this.run.id),
    );
    let steps: Promise<unknown> = Promise.resolve();
    const masker = this.masker;
    const io: TaskIo = {
      onLine: (line) => log.push(masker.size > 0 ? { ...line, text: masker.mask(line.text) } : line),
      secretValue: (secret, key) => this.deps.secrets.value(this.run.workspaceId, secret, key),
      onStepState: (step, state) => {
        if (state === 'running')
          steps = steps.then(() => tasks.stepState(taskRunId, step, state)).catch(() => {});
      },
    };
    const signal = this.state.signal;
    let outcome: TaskOutcome;
    try {
      outcome = await this.deps.semaphore.run(() => this.deps.executor.runTask(resolved, io, signal), signal);
    } catch {
      outcome = {
        status: 'cancelled',
        reason: 'the run stopped before the task started',
        steps: [],
        results: {},
        attempts: 0,
      };
    }
    await log.close();
    await steps;
    if (this.state.detached()) return { ok: false, reason: 'detached', results: {} };
    for (const step of outcome.steps) await tasks.finishStep(taskRunId, step);
    const by = this.state.stoppedBy();
    const stopped = by ? stoppedTaskStatus(outcome, by) : undefined;
    const status = stopped?.status ?? outcome.status;
    const reason = stopped?.reason ?? outcome.reason;
    await tasks.finishTaskRun(taskRunId, {
      status,
      reason,
      results: outcome.results,
      attempts: outcome.attempts,
    });
    await this.deps.logs.end(this.run.id, taskRunId);
    return { ok: status === 'succeeded', reason, results: outcome.results };
  }
}
