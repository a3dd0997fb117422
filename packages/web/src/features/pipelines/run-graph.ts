import type { TaskRunView } from '@slipway/contracts';
import { isRecord, type Value } from './definition-parse';

/**
 * The run view's graph, built from the pipeline's definition and the run's task runs: one node
 * per pipeline task, edges from `runAfter` and from result references
 * (`$(tasks.<t>.results.<r>)` in params and `when`), `finally` tasks kept apart.
 */
export interface GraphNode {
  id: string;
  isFinally: boolean;
  status: string;
}
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: 'runAfter' | 'result';
}
export interface RunGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const RESULT_REF = /\$\(tasks\.([a-zA-Z0-9_-]+)\.results\./g;

function stringsIn(value: Value | undefined, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => stringsIn(v, out));
  else if (isRecord(value)) Object.values(value).forEach((v) => stringsIn(v, out));
  return out;
}

/** The tasks a pipeline task reads results from, in its params and `when` expressions. */
export function resultReferences(task: Record<string, Value>): string[] {
  const found = new Set<string>();
  for (const s of stringsIn([task.params ?? null, task.when ?? null, task.matrix ?? null])) {
    for (const m of s.matchAll(RESULT_REF)) found.add(m[1]!);
  }
  return [...found];
}

/** A pipeline task's status from its task runs (a matrix or retries give several). */
export function taskStatus(runs: TaskRunView[]): string {
  if (runs.length === 0) return 'pending';
  const statuses = runs.map((r) => r.status);
  for (const s of ['failed', 'timed_out', 'cancelled']) if (statuses.includes(s)) return s;
  if (statuses.some((s) => s === 'running' || s === 'in_progress')) return 'running';
  if (statuses.some((s) => s === 'pending'))
    return statuses.every((s) => s === 'pending') ? 'pending' : 'running';
  if (statuses.every((s) => s === 'skipped')) return 'skipped';
  return 'succeeded';
}

function taskList(value: Value | undefined): Record<string, Value>[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** Builds the graph; without a definition the nodes come from the task runs alone. */
export function buildRunGraph(spec: Record<string, Value> | null, taskRuns: TaskRunView[]): RunGraph {
  const byTask = new Map<string, TaskRunView[]>();
  for (const tr of taskRuns) byTask.set(tr.pipelineTask, [...(byTask.get(tr.pipelineTask) ?? []), tr]);
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const add = (task: Record<string, Value>, isFinally: boolean) => {
    const name = typeof task.name === 'string' ? task.name : '';
    if (!name || seen.has(name)) return;
    seen.add(name);
    nodes.push({ id: name, isFinally, status: taskStatus(byTask.get(name) ?? []) });
  };
  const tasks = taskList(spec?.tasks);
  const finallyTasks = taskList(spec?.finally);
  tasks.forEach((t) => add(t, false));
  finallyTasks.forEach((t) => add(t, true));
  // tasks that ran but are not in the definition we have (it changed): still shown
  for (const tr of taskRuns)
    if (!seen.has(tr.pipelineTask)) {
      seen.add(tr.pipelineTask);
      nodes.push({
        id: tr.pipelineTask,
        isFinally: tr.isFinally,
        status: taskStatus(byTask.get(tr.pipelineTask)!),
      });
    }
  const edgeIds = new Set<string>();
  const link = (source: string, target: string, kind: GraphEdge['kind']) => {
    if (!seen.has(source) || source === target) return;
    const id = `${source}->${target}`;
    if (edgeIds.has(id)) return;
    edgeIds.add(id);
    edges.push({ id, source, target, kind });
  };
  for (const task of [...tasks, ...finallyTasks]) {
    const name = typeof task.name === 'string' ? task.name : '';
    if (!name) continue;
    const after = Array.isArray(task.runAfter) ? task.runAfter : [];
    for (const a of after) if (typeof a === 'string') link(a, name, 'runAfter');
    for (const r of resultReferences(task)) link(r, name, 'result');
  }
  return { nodes, edges };
}
