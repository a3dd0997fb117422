import type { Pipeline, PipelineSpec, PipelineTask } from './model.js';
import { eachString, findReferences } from './references.js';

export type EdgeKind = 'runAfter' | 'result';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface GraphNode {
  name: string;
  isFinally: boolean;
  task: PipelineTask;
  /** Tasks this one waits for (runAfter and result references), without duplicates. */
  parents: string[];
}

export interface PipelineGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Topological order: tasks first (declaration order among equals), then finally tasks. */
  order: string[];
}

const specOfPipeline = (pipeline: Pipeline | PipelineSpec): PipelineSpec =>
  'spec' in pipeline ? pipeline.spec : pipeline;

/** Names of tasks whose results a pipeline task reads (params, when, matrix, an inline taskSpec). */
export function resultSources(task: PipelineTask): string[] {
  const sources = new Set<string>();
  eachString(task, (text) => {
    for (const reference of findReferences(text))
      if (reference.kind === 'taskResult' || reference.kind === 'matrixLength') sources.add(reference.task);
  });
  return [...sources];
}

/**
 * Edges of a pipeline: `runAfter` and result references. Edges naming unknown tasks are left out
 * (validation reports them); result references from finally tasks to tasks are kept for display.
 */
export function pipelineEdges(pipeline: Pipeline | PipelineSpec): GraphEdge[] {
  const spec = specOfPipeline(pipeline);
  const tasks = new Set(spec.tasks.map((t) => t.name));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const add = (from: string, to: string, kind: EdgeKind) => {
    const key = `${from}\u0000${to}\u0000${kind}`;
    if (!tasks.has(from) || seen.has(key)) return;
    seen.add(key);
    edges.push({ from, to, kind });
  };
  for (const task of spec.tasks) for (const parent of task.runAfter ?? []) add(parent, task.name, 'runAfter');
  for (const task of [...spec.tasks, ...(spec.finally ?? [])])
    for (const parent of resultSources(task)) add(parent, task.name, 'result');
  return edges;
}

/** The first cycle found, as a closed walk (`['a', 'b', 'a']`), or null. */
export function findCycle(names: readonly string[], edges: readonly GraphEdge[]): string[] | null {
  const children = new Map<string, string[]>(names.map((n) => [n, []]));
  for (const edge of edges) children.get(edge.from)?.push(edge.to);
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): string[] | null => {
    state.set(name, 'visiting');
    stack.push(name);
    for (const child of children.get(name) ?? []) {
      if (state.get(child) === 'visiting') return [...stack.slice(stack.indexOf(child)), child];
      if (!state.has(child) && children.has(child)) {
        const cycle = visit(child);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of names) {
    if (state.has(name)) continue;
    const cycle = visit(name);
    if (cycle) return cycle;
  }
  return null;
}

function topologicalOrder(names: readonly string[], edges: readonly GraphEdge[]): string[] {
  const indegree = new Map(names.map((n) => [n, 0]));
  for (const edge of edges) if (indegree.has(edge.to)) indegree.set(edge.to, indegree.get(edge.to)! + 1);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < names.length) {
    const next = names.find((n) => !placed.has(n) && indegree.get(n) === 0);
    if (next === undefined) break;
    placed.add(next);
    order.push(next);
    for (const edge of edges)
      if (edge.from === next && indegree.has(edge.to)) indegree.set(edge.to, indegree.get(edge.to)! - 1);
  }
  return order;
}

/** Builds the DAG of a validated pipeline. Throws when the tasks form a cycle. */
export function buildGraph(pipeline: Pipeline | PipelineSpec): PipelineGraph {
  const spec = specOfPipeline(pipeline);
  const edges = pipelineEdges(spec);
  const names = spec.tasks.map((t) => t.name);
  const mainEdges = edges.filter((e) => names.includes(e.to));
  const cycle = findCycle(names, mainEdges);
  if (cycle) throw new Error(`cycle: ${cycle.join(' → ')}`);
  const node = (task: PipelineTask, isFinally: boolean): GraphNode => ({
    name: task.name,
    isFinally,
    task,
    parents: [...new Set(edges.filter((e) => e.to === task.name).map((e) => e.from))],
  });
  const finallyTasks = spec.finally ?? [];
  return {
    nodes: [...spec.tasks.map((t) => node(t, false)), ...finallyTasks.map((t) => node(t, true))],
    edges,
    order: [...topologicalOrder(names, mainEdges), ...finallyTasks.map((t) => t.name)],
  };
}
