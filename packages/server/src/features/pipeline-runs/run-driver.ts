import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PipelineRunStatus } from '@slipway/contracts';
import {
  aggregateMatrixResults,
  buildGraph,
  expandMatrix,
  pipelineOutcome,
  readyTasks,
  resolvePipelineParams,
  resolvePipelineResults,
  resolveTaskRun,
  taskSpecFor,
  taskStatusVariables,
  type GraphNode,
  type ParamValue,
  type PipelineGraph,
  type PipelineTask,
  type SubstitutionContext,
  type TaskSpec,
  type TaskStateInfo,
} from '../pipelines/definition/index.js';
import type { Semaphore } from '../pipelines/executor/concurrency.js';
import type { Executor, TaskIo, TaskOutcome } from '../pipelines/executor/executor.js';
import { LogBuffer } from './log-buffer.js';
import { describeIssues, loadDefinition, templateCatalogue, type RunDefinition } from './run-definition.js';
import { finalStatus, restoredStates, stoppedTaskStatus } from './run-status.js';
import type { RunRow, RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';

export const EXECUTOR_LOST = 'executor lost';

export interface DriverDeps {
  runs: RunStore;
  tasks: TaskStore;
  executor: Executor;
  semaphore: Semaphore;
  decrypt: (sealed: string) => string;
  dataDir: string;
  instanceId: string;
  onError: (error: unknown, runId: string) => void;
}

interface TaskEnd {
  ok: boolean;
  reason: string;
  results: Record<string, ParamValue>;
}

/** Drives one claimed run from its stored state to its end, through the pure scheduler. */
export class RunDriver {
  private readonly controller = new AbortController();
  private stoppedBy: 'timeout' | 'cancel' | undefined;
  /** The engine is shutting down: write no state, let the lease lapse. */
  private detached = false;
  private readonly states: Record<string, TaskStateInfo> = {};
  private readonly taskResults: Record<string, Record<string, ParamValue>> = {};
  private readonly matrixLengths: Record<string, number> = {};
  private readonly failures = new Map<string, string>();
  private params: Record<string, ParamValue> = {};
  private readonly runDir: string;

  constructor(
    private readonly deps: DriverDeps,
    private readonly run: RunRow,
  ) {
    this.runDir = join(deps.dataDir, 'runs', run.id);
  }

  get id(): string {
    return this.run.id;
  }

  cancel(): void {
    this.stop('cancel');
  }

  detach(): void {
    this.detached = true;
    this.controller.abort(new Error('the engine is stopping'));
  }

  private stop(by: 'timeout' | 'cancel'): void {
    if (this.stoppedBy || this.detached) return;
    this.stoppedBy = by;
    this.controller.abort(
      new Error(by === 'timeout' ? 'the pipeline run timed out' : 'the run was cancelled'),
    );
  }

  async drive(): Promise<void> {
    const { tasks } = this.deps;
    const existing = await tasks.taskRuns(this.run.id);
    if (existing.some((t) => t.status === 'running')) {
      await tasks.failRunning(this.run.id, EXECUTOR_LOST);
      return this.finish('failed', EXECUTOR_LOST, 'the process running this run stopped', null);
    }
    const text = await this.deps.runs.definition(this.run.pipelineId, this.run.pipelineVersion);
    const loaded = loadDefinition(
      text ?? '',
      templateCatalogue(await tasks.taskTemplates(this.run.workspaceId)),
    );
    if (!loaded.ok)
      return this.finish('failed', `invalid definition: ${describeIssues(loaded.errors)}`, '', null);
    const params = resolvePipelineParams(
      loaded.definition.spec,
      this.run.params as Record<string, ParamValue>,
    );
    if (!params.ok)
      return this.finish('failed', `invalid params: ${describeIssues(params.errors)}`, '', null);
    this.params = params.params;
    const graph = buildGraph(loaded.definition.spec);
    Object.assign(this.states, restoredStates(existing, this.taskResults));
    const elapsed = Date.now() - (this.run.startedAt ?? new Date()).getTime();
    const timer = setTimeout(() => this.stop('timeout'), Math.max(0, this.run.timeoutMs - elapsed));
    try {
      await this.schedule(graph, loaded.definition, await this.prepareWorkspaces(loaded.definition));
    } finally {
      clearTimeout(timer);
    }
    if (this.detached) return;
    const outcome = pipelineOutcome(this.states, { stoppedBy: this.stoppedBy });
    const results = resolvePipelineResults(loaded.definition.spec, this.context(loaded.definition));
    const [failedTask, failedReason] = [...this.failures.entries()][0] ?? [];
    const end = finalStatus(outcome, this.run.timeoutMs, failedTask, failedReason);
    return this.finish(end.status, end.reason, outcome.message, results);
  }

  private async prepareWorkspaces(definition: RunDefinition): Promise<Record<string, string>> {
    const names = new Set((definition.spec.workspaces ?? []).map((w) => w.name));
    for (const binding of this.run.workspaceBindings as { name: string }[]) names.add(binding.name);
    const out: Record<string, string> = {};
    for (const name of names) {
      out[name] = join(this.runDir, 'workspaces', name);
      await mkdir(out[name], { recursive: true });
    }
    return out;
  }

  private context(definition: RunDefinition): SubstitutionContext {
    return {
      params: this.params,
      taskResults: this.taskResults,
      matrixLengths: this.matrixLengths,
      context: {
        pipelineRun: { name: this.run.name, uid: this.run.id, namespace: 'default' },
        pipeline: { name: definition.name ?? this.run.name },
      },
    };
  }

  private async schedule(
    graph: PipelineGraph,
    definition: RunDefinition,
    workspaces: Record<string, string>,
  ) {
    const inflight = new Map<string, Promise<void>>();
    const byName = new Map(graph.nodes.map((n) => [n.name, n]));
    for (;;) {
      if (this.detached) break;
      const decision = readyTasks(graph, this.states, {
        context: this.context(definition),
        ...(this.stoppedBy ? { stopReason: this.controller.signal.reason?.message, runFinally: false } : {}),
      });
      for (const skip of decision.skip) {
        this.states[skip.name] = { state: 'skipped', skipCause: skip.cause };
        await this.record(byName.get(skip.name)!, 'skipped', skip.reason);
      }
      for (const error of decision.errors) {
        this.states[error.name] = { state: 'failed' };
        this.failures.set(error.name, error.message);
        await this.record(byName.get(error.name)!, 'failed', error.message);
      }
      for (const name of decision.start) {
        this.states[name] = { state: 'running' };
        const node = byName.get(name)!;
        const done = this.startTask(node, graph, definition, workspaces)
          .then((end) => {
            this.states[name] = { state: end.ok ? 'succeeded' : 'failed' };
            if (end.ok) this.taskResults[name] = end.results;
            else this.failures.set(name, end.reason);
          })
          .finally(() => inflight.delete(name));
        inflight.set(name, done);
      }
      if (inflight.size === 0) {
        if (decision.skip.length > 0 || decision.errors.length > 0) continue;
        break;
      }
      await Promise.race(inflight.values());
    }
    await Promise.allSettled(inflight.values());
  }

  private record(node: GraphNode, status: string, reason: string) {
    return this.deps.tasks.upsertTaskRun({
      runId: this.run.id,
      name: node.name,
      pipelineTask: node.name,
      isFinally: node.isFinally,
      status,
      reason,
    });
  }

  private async startTask(
    node: GraphNode,
    graph: PipelineGraph,
    definition: RunDefinition,
    workspaces: Record<string, string>,
  ): Promise<TaskEnd> {
    const spec = taskSpecFor(node.task, definition.catalogue);
    let ctx = this.context(definition);
    if (node.isFinally) {
      const main = graph.nodes.filter((n) => !n.isFinally).map((n) => n.name);
      ctx = { ...ctx, ...taskStatusVariables(main, this.states) };
    }
    let expanded: PipelineTask[];
    try {
      if (!spec) throw new Error(`task "${node.task.taskRef?.name ?? node.name}" is not in the catalogue`);
      expanded = expandMatrix(node.task, ctx);
    } catch (error) {
      const reason = (error as Error).message;
      await this.record(node, 'failed', reason);
      return { ok: false, reason, results: {} };
    }
    const matrixed = Boolean(node.task.matrix) && expanded.length > 0 && expanded[0]!.name !== node.name;
    if (matrixed) this.matrixLengths[node.name] = expanded.length;
    const ends = await Promise.all(expanded.map((pt) => this.runOne(pt, node, spec, ctx, workspaces)));
    const failed = ends.find((e) => !e.ok);
    if (failed) return failed;
    return {
      ok: true,
      reason: '',
      results: matrixed ? aggregateMatrixResults(ends.map((e) => e.results)) : (ends[0]?.results ?? {}),
    };
  }

  private async runOne(
    pt: PipelineTask,
    node: GraphNode,
    spec: TaskSpec,
    ctx: SubstitutionContext,
    workspaces: Record<string, string>,
  ): Promise<TaskEnd> {
    const { tasks } = this.deps;
    const resultsDir = join(this.runDir, 'results', pt.name);
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
      return { ok: false, reason, results: {} };
    }
    await tasks.initSteps(taskRunId, resolved.steps);
    const log = new LogBuffer(
      (lines) => tasks.appendLog(this.run.id, taskRunId, lines),
      (error) => this.deps.onError(error, this.run.id),
    );
    let steps: Promise<unknown> = Promise.resolve();
    const io: TaskIo = {
      onLine: (line) => log.push(line),
      secretValue: (secret, key) => this.secretValue(secret, key),
      onStepState: (step, state) => {
        if (state === 'running')
          steps = steps.then(() => tasks.stepState(taskRunId, step, state)).catch(() => {});
      },
    };
    const signal = this.controller.signal;
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
    if (this.detached) return { ok: false, reason: 'detached', results: {} };
    for (const step of outcome.steps) await tasks.finishStep(taskRunId, step);
    const stopped = this.stoppedBy ? stoppedTaskStatus(outcome, this.stoppedBy) : undefined;
    const status = stopped?.status ?? outcome.status;
    const reason = stopped?.reason ?? outcome.reason;
    await tasks.finishTaskRun(taskRunId, {
      status,
      reason,
      results: outcome.results,
      attempts: outcome.attempts,
    });
    return { ok: status === 'succeeded', reason, results: outcome.results };
  }

  private async secretValue(secret: string, key: string): Promise<string> {
    const sealed = await this.deps.tasks.sealedSecret(this.run.workspaceId, secret, key);
    if (sealed === undefined) throw new Error(`secret "${secret}" has no key "${key}"`);
    return this.deps.decrypt(sealed);
  }

  private finish(status: PipelineRunStatus, reason: string, message: string, results: unknown) {
    return this.deps.runs.finish(this.run.id, this.deps.instanceId, { status, reason, message, results });
  }
}
