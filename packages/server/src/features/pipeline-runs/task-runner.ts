import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import {
  resolveTaskRun,
  type GraphNode,
  type ParamValue,
  type PipelineTask,
  type ResolvedTaskRun,
  type SubstitutionContext,
  type TaskSpec,
  typedResults,
} from '../pipelines/definition/index.js';
import type { Semaphore } from '../pipelines/executor/concurrency.js';
import type { Executor, TaskIo, TaskOutcome } from '../pipelines/executor/executor.js';
import { SecretMasker } from '../pipelines/executor/secret-masker.js';
import { LogBuffer } from './log-buffer.js';
import type { LogPublisher } from './logs/log-publisher.js';
import type { RunDirectory } from './run-directory.js';
import { configMapsOf, type ConfigMapSource, type SecretSource } from './run-sources.js';
import { stoppedTaskStatus } from './run-status.js';
import { documentRecordOf, serviceAccountFor } from './run-service-accounts.js';
import { podTemplateFor, substitutePodTemplate } from './run-pod-templates.js';
import { foldStepEnv, needsStepEnv, type StepEnvSources } from './step-env.js';
import type { RunRow } from './run-store.js';
import type { TaskRunStart, TaskStore } from './task-store.js';

/** How long a step runs before its row says so (shorter steps get their start with their end). */
export const STEP_RUNNING_AFTER_MS = 100;

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
  /** Config maps for env, envFrom and workspaces; by default those the secrets carry (SecretSource.configMaps). */
  configMaps?: ConfigMapSource;
  logs: LogPublisher;
  onError: (error: unknown, runId: string) => void;
}

/** What the driver tells a task run about the run around it. */
export interface RunState {
  signal: AbortSignal;
  stoppedBy(): 'timeout' | 'cancel' | undefined;
  /**
   * The signal of the task's section (its tasks or its finally tasks), aborted also when the
   * section's deadline passes (timeouts.tasks, timeouts.finally); `signal` by default.
   */
  sectionSignal?(node: GraphNode): AbortSignal;
  /** Set once the task's section outlasted its deadline: the reason its stopped task runs end with. */
  sectionTimedOut?(node: GraphNode): string | undefined;
  detached(): boolean;
  /** The run's organisation: its tasks and steps share slots fairly with other organisations'. */
  tenant?: string;
}

/**
 * Runs one (matrix-expanded) task of a run through the executor: its task run row, resolution of
 * every `$(...)`, the step rows, the log (masked for the run's secret files as well), and the end.
 */
export class TaskRunner {
  /** Secret values the run wrote as files; the executor masks the env ones itself. */
  readonly masker = new SecretMasker();
  /** Pipeline workspaces bound to a config map or a secret: steps may only read them (Tekton). */
  readOnlyWorkspaces: readonly string[] = [];
  /**
   * Task runs of the run started and not yet at their end's statement (a matrix counts each of
   * its instances): while others are, an end waits a little for theirs (FINISH_GATHER_MS).
   */
  private active = 0;

  /** The workspace's config maps and secrets, for the steps' config map env and envFrom. */
  private readonly stepEnv: StepEnvSources;

  constructor(
    private readonly deps: TaskRunnerDeps,
    private readonly run: RunRow,
    private readonly dir: RunDirectory,
    private readonly state: RunState,
  ) {
    const configMaps = configMapsOf(deps);
    this.stepEnv = {
      configMap: (name) => configMaps.data(run.workspaceId, name),
      secret: (name) => deps.secrets.values(run.workspaceId, name),
    };
  }

  async run1(
    pt: PipelineTask,
    node: GraphNode,
    spec: TaskSpec,
    ctx: SubstitutionContext,
    workspaces: Record<string, string>,
  ): Promise<TaskEnd> {
    this.active += 1;
    let left = false;
    const leave = () => {
      if (!left) this.active -= 1;
      left = true;
    };
    try {
      return await this.runOne(pt, node, spec, ctx, workspaces, leave);
    } finally {
      leave();
    }
  }

  private async runOne(
    pt: PipelineTask,
    node: GraphNode,
    spec: TaskSpec,
    ctx: SubstitutionContext,
    workspaces: Record<string, string>,
    /** The task is at its end's statement: it no longer counts as running (see `active`). */
    leave: () => void,
  ): Promise<TaskEnd> {
    const { tasks } = this.deps;
    const resultsDir = this.dir.resultsDir(pt.name);
    // both executors create it when the task declares results; only then can a step name it
    if ((spec.results ?? []).length > 0) await mkdir(resultsDir, { recursive: true });
    const start = { runId: this.run.id, name: pt.name, pipelineTask: node.name, isFinally: node.isFinally };
    // the run document's service account for this pipeline task (undefined: the namespace's default)
    const serviceAccountName = serviceAccountFor(documentRecordOf(this.run.trigger), node.name);
    // its pod template: the taskRunSpec's merged over the taskRunTemplate's (run-pod-templates.ts)
    const podTemplate = podTemplateFor(documentRecordOf(this.run.trigger), node.name);
    const resolve = (uid: string) =>
      resolveTaskRun(pt, spec, {
        ...ctx,
        resultsDir,
        pipelineWorkspaces: workspaces,
        ...(this.deps.executor.containerPaths
          ? { containerPaths: true, readOnlyWorkspaces: this.readOnlyWorkspaces }
          : {}),
        context: {
          ...ctx.context,
          taskRun: {
            name: `${this.run.name}-${pt.name}`,
            uid,
            ...(serviceAccountName ? { serviceAccountName } : {}),
          },
        },
      });
    // resolved with the id the task run will have when it is new, so the row and its steps are
    // written in one statement; a task run that existed keeps its id and is resolved again
    const newId = randomUUID();
    /** The task run resolved with this id, its config map env folded and its volumes written. */
    const prepare = async (id: string) => {
      let prepared = resolve(id);
      // config map env and envFrom become plain env and secretEnv before the executor sees them
      if (needsStepEnv(prepared)) prepared = await foldStepEnv(prepared, this.stepEnv);
      return this.writeVolumes(prepared);
    };
    let resolved;
    try {
      resolved = await prepare(newId);
    } catch (error) {
      return this.failToResolve(start, (error as Error).message);
    }
    const started = await tasks.startTaskRun(newId, start, resolved.steps);
    const taskRunId = started.id;
    // a task run that was running when its server stopped: its steps re-attach in the step
    // supervisor and their output is replayed; the lines stored already are not written again
    let storedSeq = 0;
    if (!started.inserted) {
      try {
        resolved = await prepare(taskRunId);
      } catch (error) {
        return this.failToResolve(start, (error as Error).message);
      }
      await tasks.initSteps(taskRunId, resolved.steps);
      resolved = { ...resolved, resumed: true };
      storedSeq = await this.deps.logs.lastSeq(taskRunId);
    }
    const log = new LogBuffer(
      (lines) => this.deps.logs.append(this.run.id, taskRunId, lines),
      (error) => this.deps.onError(error, this.run.id),
    );
    let steps: Promise<unknown> = Promise.resolve();
    // A step is shown running once it has run for STEP_RUNNING_AFTER_MS: most steps of a fan-out
    // end sooner, and their start is written with their end, in the task's last statement.
    const runningTimers = new Map<string, NodeJS.Timeout>();
    const masker = this.masker;
    const io: TaskIo = {
      onLine: (line) => {
        if (line.seq <= storedSeq) return; // stored before the restart
        log.push(masker.size > 0 ? { ...line, text: masker.mask(line.text) } : line);
      },
      secretValue: (secret, key) => this.deps.secrets.value(this.run.workspaceId, secret, key),
      onStepState: (step, state) => {
        clearTimeout(runningTimers.get(step));
        runningTimers.delete(step);
        if (state !== 'running') return;
        const timer = setTimeout(() => {
          runningTimers.delete(step);
          steps = steps.then(() => tasks.stepState(taskRunId, step, state)).catch(() => {});
        }, STEP_RUNNING_AFTER_MS);
        timer.unref();
        runningTimers.set(step, timer);
      },
    };
    const signal = this.state.sectionSignal?.(node) ?? this.state.signal;
    let outcome: TaskOutcome;
    try {
      const tenant = this.state.tenant;
      const task = {
        ...resolved,
        ...(tenant === undefined ? {} : { tenant }),
        ...(serviceAccountName === undefined ? {} : { serviceAccountName }),
        // with the task run's params in it, as Tekton substitutes a taskRunSpec's template
        ...(podTemplate === undefined
          ? {}
          : { podTemplate: substitutePodTemplate(podTemplate, resolved.params) }),
      };
      outcome = await this.deps.semaphore.run(
        () => this.deps.executor.runTask(task, io, signal),
        signal,
        tenant,
      );
    } catch {
      outcome = {
        status: 'cancelled',
        reason: 'the run stopped before the task started',
        steps: [],
        results: {},
        attempts: 0,
      };
    }
    runningTimers.forEach((timer) => clearTimeout(timer));
    if (this.state.detached()) {
      // the engine stopped and aborted the task: nothing is left to re-attach to
      this.deps.executor.release?.(taskRunId);
      await log.close();
      await steps;
      return { ok: false, reason: 'detached', results: {} };
    }
    const lines = await log.takeRest();
    await steps;
    // array and object results are JSON in their files: the task fails if one does not parse
    const typed = typedResults(spec.results, outcome.results);
    if (typed.error && outcome.status === 'succeeded')
      outcome = { ...outcome, status: 'failed', reason: typed.error };
    const by = this.state.stoppedBy();
    const section = by ? undefined : this.state.sectionTimedOut?.(node);
    const stopped = by
      ? stoppedTaskStatus(outcome, by)
      : section && outcome.status !== 'succeeded'
        ? { status: 'timed_out' as const, reason: section }
        : undefined;
    const status = stopped?.status ?? outcome.status;
    const reason = stopped?.reason ?? outcome.reason;
    // the steps, the task run, its last log chunk and the NOTIFYs: one statement, shared with
    // the other tasks of the run that end meanwhile
    leave();
    await this.deps.logs.finishTask(
      this.run.id,
      { taskRunId, status, reason, results: typed.results, steps: outcome.steps, lines },
      (runId, ends, notify) => tasks.finishTasks(runId, ends, notify),
      this.active > 0,
    );
    // stored: the supervisor may forget the task's groups and their spooled output
    this.deps.executor.release?.(taskRunId);
    return { ok: status === 'succeeded', reason, results: typed.results };
  }

  /** The files of the task's secret and config map volumes, written before it runs; their secrets masked. */
  private async writeVolumes<R extends ResolvedTaskRun>(resolved: R): Promise<R> {
    if (!resolved.volumes?.some((v) => v.kind === 'secret' || v.kind === 'configMap')) return resolved;
    const written = await this.dir.writeVolumes(
      resolved.name,
      resolved.volumes,
      this.run.workspaceId,
      this.deps.secrets,
      configMapsOf(this.deps),
    );
    for (const value of written.secretValues) this.masker.add(value);
    return { ...resolved, volumes: written.volumes };
  }

  private async failToResolve(start: Omit<TaskRunStart, 'status'>, reason: string): Promise<TaskEnd> {
    const { tasks } = this.deps;
    const taskRunId = await tasks.upsertTaskRun({ ...start, status: 'running' });
    await tasks.finishTaskRun(taskRunId, { status: 'failed', reason, results: {}, attempts: 1 });
    await this.deps.logs.end(this.run.id, taskRunId);
    return { ok: false, reason, results: {} };
  }
}
