import type { PipelineGraph } from './graph.js';
import { evaluateWhen, type SubstitutionContext } from './substitute.js';
import {
  isDone,
  stateInfo,
  taskStatusVariables,
  type SkipCause,
  type TaskStateInfo,
  type TaskStates,
} from './task-states.js';

export interface SkipDecision {
  name: string;
  cause: SkipCause;
  reason: string;
}

export interface ReadyDecision {
  /** Tasks to start now (finally tasks only once every task is done). */
  start: string[];
  /** Tasks to mark skipped now, cascades included, each with its reason. */
  skip: SkipDecision[];
  /** Tasks whose `when` could not be evaluated (a bad reference): mark them failed. */
  errors: { name: string; message: string }[];
}

export interface ReadyOptions {
  /** Params, task results and context for `when` expressions. Finally tasks also get task statuses. */
  context?: SubstitutionContext;
  /** Set when the run is timing out or cancelled: no new task starts; finally still runs. */
  stopReason?: string;
  /** False to skip finally tasks too (a hard cancel). Default true. */
  runFinally?: boolean;
}

function ancestors(graph: PipelineGraph, name: string): Set<string> {
  const found = new Set<string>();
  const queue = [name];
  while (queue.length > 0) {
    const current = queue.pop()!;
    for (const edge of graph.edges)
      if (edge.to === current && !found.has(edge.from)) {
        found.add(edge.from);
        queue.push(edge.from);
      }
  }
  return found;
}

/**
 * The scheduler's step: given each task's state, which tasks start and which are skipped.
 * Tekton rules: once a task has failed the run is stopping, so no new task starts (dependants of
 * the failure are skipped as `parent task "x" failed`, others as stopping); a task skipped by its
 * `when` lets runAfter-only dependants run, but tasks needing its results are skipped; finally
 * tasks start when every task is done, and are skipped if results they read are missing.
 */
export function readyTasks(
  graph: PipelineGraph,
  states: TaskStates,
  options: ReadyOptions = {},
): ReadyDecision {
  const local = new Map<string, TaskStateInfo>(graph.nodes.map((n) => [n.name, stateInfo(states[n.name])]));
  const decision: ReadyDecision = { start: [], skip: [], errors: [] };
  const skip = (name: string, cause: SkipCause, reason: string) => {
    local.set(name, { state: 'skipped', skipCause: cause });
    decision.skip.push({ name, cause, reason });
  };
  const mainNodes = graph.nodes.filter((n) => !n.isFinally);
  const failed = graph.order.find(
    (n) => local.get(n)?.state === 'failed' && mainNodes.some((m) => m.name === n),
  );
  const stopping = options.stopReason ?? (failed ? `task "${failed}" failed` : undefined);
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));

  for (const name of graph.order) {
    const node = byName.get(name)!;
    if (node.isFinally || local.get(name)!.state !== 'pending') continue;
    if (stopping) {
      const failedAncestor = [...ancestors(graph, name)].find((a) => local.get(a)?.state === 'failed');
      if (failedAncestor) skip(name, 'parentFailed', `parent task "${failedAncestor}" failed`);
      else skip(name, 'stopping', `pipeline is stopping: ${stopping}`);
      continue;
    }
    const incoming = graph.edges.filter((e) => e.to === name);
    if (incoming.some((e) => !isDone(local.get(e.from)!.state))) continue;
    const blocked = incoming.find((e) => {
      const parent = local.get(e.from)!;
      return parent.state === 'skipped' && parent.skipCause !== 'when';
    });
    if (blocked) {
      skip(name, 'parentSkipped', `parent task "${blocked.from}" was skipped`);
      continue;
    }
    const missing = incoming.find((e) => e.kind === 'result' && local.get(e.from)!.state !== 'succeeded');
    if (missing) {
      skip(name, 'missingResults', `results of task "${missing.from}" are missing: it was skipped`);
      continue;
    }
    if (!whenAllows(name, options.context ?? {}, decision, skip, node.task.when)) continue;
    decision.start.push(name);
    local.set(name, { state: 'running' });
  }

  const allDone = mainNodes.every((n) => isDone(local.get(n.name)!.state));
  if (!allDone) return decision;
  const statusContext = taskStatusVariables(
    mainNodes.map((n) => n.name),
    Object.fromEntries(local),
  );
  for (const node of graph.nodes) {
    if (!node.isFinally || local.get(node.name)!.state !== 'pending') continue;
    if (options.runFinally === false) {
      skip(
        node.name,
        'stopping',
        `pipeline is stopping: ${options.stopReason ?? 'finally tasks are not run'}`,
      );
      continue;
    }
    const missing = graph.edges.find(
      (e) => e.to === node.name && e.kind === 'result' && local.get(e.from)?.state !== 'succeeded',
    );
    if (missing) {
      skip(node.name, 'missingResults', `results of task "${missing.from}" are missing: it did not succeed`);
      continue;
    }
    const context = { ...options.context, ...statusContext };
    if (whenAllows(node.name, context, decision, skip, node.task.when)) decision.start.push(node.name);
  }
  return decision;
}

function whenAllows(
  name: string,
  context: SubstitutionContext,
  decision: ReadyDecision,
  skip: (name: string, cause: SkipCause, reason: string) => void,
  when: Parameters<typeof evaluateWhen>[0],
): boolean {
  try {
    const outcome = evaluateWhen(when, context);
    if (!outcome.run) skip(name, 'when', outcome.reason);
    return outcome.run;
  } catch (error) {
    decision.errors.push({ name, message: (error as Error).message });
    return false;
  }
}
