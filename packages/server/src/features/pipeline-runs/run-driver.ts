import { setMaxListeners } from 'node:events';
import type { PipelineRunStatus } from '@slipway/contracts';
import {
  aggregateMatrixResults,
  boundWorkspaces,
  buildGraph,
  expandMatrix,
  pipelineOutcome,
  pipelineWorkspaceVariables,
  readyTasks,
  resolvePipelineParams,
  resolvePipelineResults,
  taskSpecFor,
  taskStatusVariables,
  type GraphNode,
  type ParamValue,
  type PipelineGraph,
  type PipelineTask,
  type SubstitutionContext,
  type TaskStateInfo,
} from '../pipelines/definition/index.js';
import { describeIssues, type RunDefinition } from './run-definition.js';
import { RunDirectory, type WorkspaceBinding } from './run-directory.js';
import { configMapsOf, type DefinitionSource } from './run-sources.js';
import { RunSections } from './run-sections.js';
import { effectiveTimeout, finalStatus, restoredStates } from './run-status.js';
import type { ClaimedRun, RunStore } from './run-store.js';
import { TaskRunner, type TaskEnd, type TaskRunnerDeps } from './task-runner.js';

export const EXECUTOR_LOST = 'executor lost';

export interface DriverDeps extends TaskRunnerDeps {
  runs: RunStore;
  definitions: DefinitionSource;
  dataDir: string;
  instanceId: string;
  /** How long a minute of the organisation's run-duration cap lasts (tests shorten it). */
  minuteMs?: number | undefined;
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
  private readonly dir: RunDirectory;
  private readonly runner: TaskRunner;
  /** timeouts.tasks and timeouts.finally of a run document's run */
  private readonly sections: RunSections;

  constructor(
    private readonly deps: DriverDeps,
    private readonly run: ClaimedRun,
  ) {
    // every task of the run (a fan-out of hundreds) listens on this one signal
    setMaxListeners(0, this.controller.signal);
    this.dir = new RunDirectory(deps.dataDir, run.id);
    this.sections = new RunSections(run, this.controller.signal);
    this.runner = new TaskRunner(deps, run, this.dir, {
      signal: this.controller.signal,
      stoppedBy: () => this.stoppedBy,
      detached: () => this.detached,
      sectionSignal: (node) => this.sections.signal(node),
      sectionTimedOut: (node) => this.sections.timedOut(node),
      tenant: run.organisationId,
    });
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
    // a run claimed from pending has never been driven: no task runs to restore or fail
    const existing = this.run.resumed ? await tasks.taskRuns(this.run.id) : [];
    const running = existing.filter((t) => t.status === 'running').map((t) => t.id);
    if (running.length > 0) {
      // steps that outlived their server in the step supervisor are driven on; the others are lost
      const recoverable = (await this.deps.executor.recoverable?.(running)) ?? new Set<string>();
      if (recoverable.size < running.length) {
        await tasks.failRunning(this.run.id, EXECUTOR_LOST);
        for (const id of running) this.deps.executor.release?.(id);
        return this.finish('failed', EXECUTOR_LOST, 'the process running this run stopped', null);
      }
    }
    let definition: RunDefinition;
    try {
      definition = await this.deps.definitions.load(
        this.run.workspaceId,
        this.run.pipelineId,
        this.run.pipelineVersion,
      );
    } catch (error) {
      return this.finish('failed', `invalid definition: ${(error as Error).message}`, '', null);
    }
    const params = resolvePipelineParams(
      definition.spec,
      this.run.params as Record<string, ParamValue>,
      this.contextVariables(definition),
    );
    if (!params.ok)
      return this.finish('failed', `invalid params: ${describeIssues(params.errors)}`, '', null);
    this.params = params.params;
    const graph = buildGraph(definition.spec);
    Object.assign(this.states, restoredStates(existing, this.taskResults));
    let workspaces: Record<string, string>;
    try {
      // a run without an environment runs on the local executor (one with an environment may
      // run on its cluster: the start refused what the local executor cannot provide)
      const prepared = await this.dir.prepare(
        definition,
        this.run.workspaceBindings as WorkspaceBinding[],
        this.run.workspaceId,
        this.deps.secrets,
        { configMaps: configMapsOf(this.deps), local: !this.run.environmentId },
      );
      for (const value of prepared.secretValues) this.runner.masker.add(value);
      this.runner.readOnlyWorkspaces = prepared.readOnlyWorkspaces;
      workspaces = boundWorkspaces(definition.spec, this.bindings(), prepared.paths);
    } catch (error) {
      return this.finish('failed', `workspaces: ${(error as Error).message}`, '', null);
    }
    // the run's own timeout, or its organisation's cap when shorter (as it was when claimed)
    const timeout = effectiveTimeout(this.run.timeoutMs, this.run.maxRunMinutes, this.deps.minuteMs);
    const elapsed = Date.now() - (this.run.startedAt ?? new Date()).getTime();
    const timer = setTimeout(() => this.stop('timeout'), Math.max(0, timeout.ms - elapsed));
    const main = graph.nodes.filter((n) => !n.isFinally).map((n) => n.name);
    this.sections.start(existing, () =>
      main.every((name) => ['succeeded', 'failed', 'skipped'].includes(this.states[name]?.state ?? '')),
    );
    try {
      await this.schedule(graph, definition, workspaces);
    } finally {
      clearTimeout(timer);
      this.sections.stop();
    }
    if (this.detached) return;
    const outcome = pipelineOutcome(this.states, { stoppedBy: this.stoppedBy });
    const results = resolvePipelineResults(definition.spec, this.context(definition));
    const [failedTask, failedReason] = [...this.failures.entries()][0] ?? [];
    const end = finalStatus(outcome, timeout, failedTask, failedReason);
    // Tekton: a run whose tasks outlasted timeouts.tasks ends PipelineRunTimeout once finally is done
    const tasksTimedOut = !this.stoppedBy && this.sections.tasksTimeoutReason;
    if (tasksTimedOut) return this.finish('timed_out', tasksTimedOut, outcome.message, results);
    return this.finish(end.status, end.reason, outcome.message, results);
  }

  private contextVariables(definition: RunDefinition) {
    return {
      pipelineRun: { name: this.run.name, uid: this.run.id, namespace: 'default' },
      pipeline: { name: definition.name ?? this.run.name },
    };
  }

  private bindings(): WorkspaceBinding[] {
    return (this.run.workspaceBindings ?? []) as WorkspaceBinding[];
  }

  private context(definition: RunDefinition): SubstitutionContext {
    return {
      params: this.params,
      taskResults: this.taskResults,
      matrixLengths: this.matrixLengths,
      context: this.contextVariables(definition),
      ...pipelineWorkspaceVariables(definition.spec, this.bindings()),
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
        ...(this.stoppedBy
          ? { stopReason: this.controller.signal.reason?.message, runFinally: false }
          : this.sections.stopReason
            ? { stopReason: this.sections.stopReason }
            : {}),
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
        if (node.isFinally) this.sections.finallyStarting();
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

  private async record(node: GraphNode, status: string, reason: string) {
    const id = await this.deps.tasks.upsertTaskRun({
      runId: this.run.id,
      name: node.name,
      pipelineTask: node.name,
      isFinally: node.isFinally,
      status,
      reason,
    });
    await this.deps.logs.end(this.run.id, id);
    return id;
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
    const ends = await Promise.all(expanded.map((pt) => this.runner.run1(pt, node, spec, ctx, workspaces)));
    const failed = ends.find((e) => !e.ok);
    if (failed) return failed;
    return {
      ok: true,
      reason: '',
      results: matrixed ? aggregateMatrixResults(ends.map((e) => e.results)) : (ends[0]?.results ?? {}),
    };
  }

  /** Removes the run's directory (the logs stay), writes the end and tells the log followers. */
  private async finish(status: PipelineRunStatus, reason: string, message: string, results: unknown) {
    await this.dir.remove().catch((error: unknown) => this.deps.onError(error, this.run.id));
    await this.deps.runs.finish(this.run.id, this.deps.instanceId, { status, reason, message, results });
    await this.deps.logs.end(this.run.id, null);
  }
}
