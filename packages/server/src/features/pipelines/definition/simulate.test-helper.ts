import { readFileSync } from 'node:fs';
import { checkDefinition } from './check-definition.js';
import { buildGraph } from './graph.js';
import { aggregateMatrixResults, expandMatrix } from './matrix.js';
import type { ParamValue, PipelineSpec, Task } from './model.js';
import { resolvePipelineParams, resolvePipelineResults } from './pipeline-values.js';
import { boundWorkspaces, pipelineWorkspaceVariables } from './pipeline-workspaces.js';
import { readyTasks } from './ready-tasks.js';
import { resolveTaskRun, type ResolvedTaskRun } from './resolve-task-run.js';
import { forAttempt } from './retry-count.js';
import type { SubstitutionContext } from './substitute.js';
import { taskSpecFor } from './task-catalogue.js';
import { taskStatusVariables, type TaskStateInfo } from './task-states.js';
import { typedResults } from './typed-results.js';

/**
 * Runs a Tekton text through the definition layer the way the run engine does (params,
 * scheduling, matrix, resolution, typed results, pipeline results) with a scripted step outcome
 * in place of an executor: the tests of Tekton's documented examples read what each task run
 * was resolved to and what the run answers.
 */

/** A Tekton example of tektoncd/pipeline (examples/v1/pipelineruns), copied into tekton-examples/. */
export function tektonExample(name: string): string {
  const text = readFileSync(new URL(`./tekton-examples/${name}.yaml`, import.meta.url), 'utf8');
  // documents of other kinds (a ConfigMap, a PersistentVolumeClaim) are for the cluster, not Slipway
  return text
    .split(/^---\s*$/m)
    .filter((doc) => /^apiVersion: tekton\.dev\//m.test(doc))
    .join('\n---\n');
}

export interface Attempt {
  status?: 'succeeded' | 'failed';
  /** What the steps wrote to their result files. */
  results?: Record<string, string>;
}

export interface SimulateOptions {
  /** What a task run's attempt does; succeeds with no results by default. */
  execute?: (run: ResolvedTaskRun, attempt: number) => Attempt;
  /** Run params over the PipelineRun's. */
  params?: Record<string, ParamValue>;
  runName?: string;
}

export interface Simulation {
  /** Every attempt's resolved task run by pipeline task (matrix runs in order). */
  runs: Record<string, ResolvedTaskRun[]>;
  states: Record<string, TaskStateInfo>;
  skipped: Record<string, string>;
  failed: Record<string, string>;
  results: Record<string, ParamValue>;
  params: Record<string, ParamValue>;
}

function pipelineOf(text: string) {
  const checked = checkDefinition(text);
  if (!checked.ok) throw new Error(`invalid: ${JSON.stringify(checked.errors, null, 1)}`);
  const run = checked.pipelineRun;
  const spec: PipelineSpec | undefined = run?.spec.pipelineSpec ?? checked.pipeline?.spec;
  if (!spec) throw new Error('no pipeline in the text');
  const catalogue = new Map<string, Task>(checked.tasks.map((t) => [t.metadata.name, t]));
  const supplied = Object.fromEntries((run?.spec.params ?? []).map((p) => [p.name, p.value]));
  const bindings = (run?.spec.workspaces ?? []).map((w) => ({ name: w.name }));
  return { spec, catalogue, supplied, bindings, name: checked.pipeline?.metadata.name };
}

export function simulate(text: string, options: SimulateOptions = {}): Simulation {
  const { spec, catalogue, supplied, bindings, name } = pipelineOf(text);
  const runName = options.runName ?? 'pr-1';
  const contextVariables = {
    pipelineRun: { name: runName, uid: 'uid-1', namespace: 'default' },
    pipeline: { name: name ?? runName },
  };
  const resolved = resolvePipelineParams(spec, { ...supplied, ...options.params }, contextVariables);
  if (!resolved.ok) throw new Error(`params: ${JSON.stringify(resolved.errors)}`);
  const graph = buildGraph(spec);
  const out: Simulation = {
    runs: {},
    states: {},
    skipped: {},
    failed: {},
    results: {},
    params: resolved.params,
  };
  const taskResults: Record<string, Record<string, ParamValue>> = {};
  const matrixLengths: Record<string, number> = {};
  const allWorkspaces = Object.fromEntries(
    [...(spec.workspaces ?? []).map((w) => w.name), ...bindings.map((b) => b.name)].map((w) => [
      w,
      `/ws/${w}`,
    ]),
  );
  const pipelineWorkspaces = boundWorkspaces(spec, bindings, allWorkspaces);
  const context = (): SubstitutionContext => ({
    params: resolved.params,
    taskResults,
    matrixLengths,
    context: contextVariables,
    ...pipelineWorkspaceVariables(spec, bindings),
  });
  const execute = options.execute ?? (() => ({}));
  for (let round = 0; round < 100; round++) {
    const decision = readyTasks(graph, out.states, { context: context() });
    for (const skip of decision.skip) {
      out.states[skip.name] = { state: 'skipped', skipCause: skip.cause };
      out.skipped[skip.name] = skip.reason;
    }
    for (const error of decision.errors) {
      out.states[error.name] = { state: 'failed' };
      out.failed[error.name] = error.message;
    }
    if (decision.start.length === 0 && decision.skip.length === 0 && decision.errors.length === 0) break;
    for (const taskName of decision.start) {
      const node = graph.nodes.find((n) => n.name === taskName)!;
      const taskSpec = taskSpecFor(node.task, catalogue)!;
      let ctx = context();
      if (node.isFinally) {
        const main = graph.nodes.filter((n) => !n.isFinally).map((n) => n.name);
        ctx = { ...ctx, ...taskStatusVariables(main, out.states) };
      }
      const expanded = expandMatrix(node.task, ctx);
      if (node.task.matrix) matrixLengths[taskName] = expanded.length;
      const ends: { ok: boolean; reason: string; results: Record<string, ParamValue> }[] = [];
      for (const pt of expanded) {
        let run: ResolvedTaskRun;
        try {
          run = resolveTaskRun(pt, taskSpec, {
            ...ctx,
            resultsDir: `/results/${pt.name}`,
            pipelineWorkspaces,
            context: { ...ctx.context, taskRun: { name: `${runName}-${pt.name}`, uid: `uid-${pt.name}` } },
          });
        } catch (error) {
          ends.push({ ok: false, reason: (error as Error).message, results: {} });
          continue;
        }
        let attempt: Attempt = {};
        for (let n = 1; n <= run.retries + 1; n++) {
          const now = forAttempt(run, n);
          (out.runs[taskName] ??= []).push(now);
          attempt = execute(now, n);
          if (attempt.status !== 'failed') break;
        }
        const typed = typedResults(taskSpec.results, attempt.results ?? {});
        const ok = attempt.status !== 'failed' && !typed.error;
        ends.push({ ok, reason: typed.error ?? (ok ? '' : 'failed'), results: typed.results });
      }
      const failure = ends.find((e) => !e.ok);
      out.states[taskName] = { state: failure ? 'failed' : 'succeeded' };
      if (failure) out.failed[taskName] = failure.reason;
      else
        taskResults[taskName] = node.task.matrix
          ? aggregateMatrixResults(ends.map((e) => e.results))
          : (ends[0]?.results ?? {});
    }
  }
  out.results = resolvePipelineResults(spec, context());
  return out;
}

/** The one (last) resolved run of a pipeline task. */
export const lastRun = (simulation: Simulation, task: string): ResolvedTaskRun => {
  const runs = simulation.runs[task];
  if (!runs?.length) throw new Error(`task "${task}" did not run`);
  return runs.at(-1)!;
};
