import { isMap, isScalar, isSeq, Scalar, visit, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Value } from '../pipelines/definition-parse';
import { resultReferences } from '../pipelines/run-graph';
import {
  editPipeline,
  fail,
  specOf,
  stringsOf,
  tasksOf,
  type EditResult,
  type OpenPipeline,
  type TaskNode,
} from './pipeline-doc';

/**
 * The studio's visual edits, each a pure function from a definition's text to the edited text
 * (or the reason it cannot be done). Comments and the way the rest of the text is written
 * survive: see pipeline-doc.ts.
 */
export type { EditResult, EditErrorCode } from './pipeline-doc';

/** A `when` expression the studio edits (`cel:` ones are kept as they are). */
export interface WhenExpression {
  input: string;
  operator: 'in' | 'notin';
  values: string[];
}

export type ParamValue = string | string[];

/** A task to add: a reference to a catalogue task or an inline spec, with its params. */
export interface NewTask {
  /** wanted name; made a valid task name and unique */
  name: string;
  taskRef?: string;
  taskSpec?: Record<string, unknown>;
  params?: Record<string, ParamValue>;
  runAfter?: string[];
  workspaces?: { name: string; workspace: string }[];
  /** add it under `finally` instead of `tasks` */
  finally?: boolean;
}

const TASK_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A Tekton pipeline task name: a DNS-1123 label. */
export function isTaskName(name: string): boolean {
  return name.length <= 63 && TASK_NAME.test(name);
}

/** The nearest valid task name to `raw` ("Build Image" is "build-image"). */
export function taskNameFrom(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 58)
    .replace(/-+$/, '');
  return name || 'task';
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The tasks a task reads from: its `runAfter` and the results it references. */
function upstreamOf(task: TaskNode): string[] {
  const plain = task.node.toJSON() as Record<string, Value>;
  return [...new Set([...stringsOf(task.node.get('runAfter')), ...resultReferences(plain)])];
}

/** Whether `task` runs after `other`, directly or through others. */
function dependsOn(tasks: readonly TaskNode[], task: string, other: string): boolean {
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const stack = [task];
  while (stack.length) {
    const current = byName.get(stack.pop()!);
    if (!current) continue;
    for (const up of upstreamOf(current)) {
      if (up === other) return true;
      if (!seen.has(up)) {
        seen.add(up);
        stack.push(up);
      }
    }
  }
  return false;
}

/** The tasks whose results `values` reference ($(tasks.<t>.results.<r>)). */
function referencedIn(values: unknown[]): string[] {
  return resultReferences({ params: values as Value[] });
}

/** Refuses `cycle` when `task` reading from `upstream` would make one. */
function wouldCycle(tasks: readonly TaskNode[], task: string, upstream: readonly string[]): boolean {
  return upstream.some((up) => up === task || dependsOn(tasks, up, task));
}

/** Sets `key` in a task, placed after `after` (the first of them present) or at the end. */
function placeKey(open: OpenPipeline, map: YAMLMap, key: string, value: Node, after: string[]) {
  const existing = map.items.findIndex((p) => isScalar(p.key) && p.key.value === key);
  if (existing >= 0) {
    map.items[existing]!.value = value;
    return;
  }
  const at = map.items.findLastIndex((p) => isScalar(p.key) && after.includes(String(p.key.value)));
  const pair = open.doc.createPair(key, value);
  if (at >= 0) map.items.splice(at + 1, 0, pair);
  else map.items.push(pair);
}

function find(open: OpenPipeline, name: string) {
  const tasks = tasksOf(specOf(open));
  return { tasks, task: tasks.find((t) => t.name === name) };
}

function dropFromRunAfter(task: TaskNode, name: string) {
  const list = task.node.get('runAfter');
  if (!isSeq(list)) return;
  list.items = list.items.filter((i) => !(isScalar(i) && String(i.value) === name));
  if (list.items.length === 0) task.node.delete('runAfter');
}

function flowList(open: OpenPipeline, values: string[]): YAMLSeq {
  const list = open.doc.createNode(values) as YAMLSeq;
  list.flow = true;
  return list;
}

/** Adds a task (under `tasks`, or `finally`), named uniquely; `name` in the answer says how. */
export function addTask(text: string, task: NewTask): EditResult {
  let chosen = '';
  const result = editPipeline(text, (open) => {
    const spec = specOf(open, true);
    if (!spec) return fail('noPipeline');
    chosen = uniqueName(taskNameFrom(task.name), new Set(tasksOf(spec).map((t) => t.name)));
    const key = task.finally ? 'finally' : 'tasks';
    let list = spec.get(key);
    if (!isSeq(list)) {
      if (list !== undefined && list !== null) return fail('noPipeline');
      list = open.doc.createNode([]) as YAMLSeq;
      const before =
        key === 'tasks' ? spec.items.findIndex((p) => isScalar(p.key) && p.key.value === 'finally') : -1;
      const pair = open.doc.createPair(key, list);
      if (before >= 0) spec.items.splice(before, 0, pair);
      else spec.items.push(pair);
    }
    const seq = list as YAMLSeq;
    if (seq.items.length === 0) seq.flow = false;
    const node = open.doc.createNode({
      name: chosen,
      ...(task.taskRef ? { taskRef: { name: task.taskRef } } : { taskSpec: task.taskSpec ?? {} }),
    }) as YAMLMap;
    const after = (task.runAfter ?? []).filter(Boolean);
    if (after.length && !task.finally) placeKey(open, node, 'runAfter', flowList(open, after), ['name']);
    const params = Object.entries(task.params ?? {});
    if (params.length)
      node.set('params', open.doc.createNode(params.map(([name, value]) => ({ name, value }))));
    if (task.workspaces?.length) node.set('workspaces', open.doc.createNode(task.workspaces));
    seq.add(node);
  });
  return result.ok ? { ...result, name: chosen } : result;
}

/**
 * Removes a task, and its name from the others' `runAfter`. Refused (`referenced`, naming the
 * readers) while other tasks or the pipeline's results read its results, unless `force`.
 */
export function removeTask(text: string, name: string, options: { force?: boolean } = {}): EditResult {
  return editPipeline(text, (open) => {
    const { tasks, task } = find(open, name);
    if (!task) return fail('noTask');
    const readers = tasks
      .filter((t) => t !== task && resultReferences(t.node.toJSON() as Record<string, Value>).includes(name))
      .map((t) => t.name);
    const results = specOf(open)?.get('results');
    const pipelineResults = referencedIn([(results as Node | undefined)?.toJSON?.() ?? null]).includes(name);
    if ((readers.length || pipelineResults) && !options.force)
      return fail('referenced', { tasks: readers, pipelineResults });
    task.list.items.splice(task.list.items.indexOf(task.node), 1);
    for (const t of tasks) if (t !== task) dropFromRunAfter(t, name);
  });
}

/** Renames a task, and every `runAfter` and `$(tasks.<name>.…)` reference to it. */
export function renameTask(text: string, from: string, to: string): EditResult {
  return editPipeline(text, (open) => {
    const { tasks, task } = find(open, from);
    if (!task) return fail('noTask');
    if (from === to) return;
    if (!isTaskName(to)) return fail('invalidName');
    if (tasks.some((t) => t.name === to)) return fail('duplicateName');
    const scalar = task.node.get('name', true);
    if (isScalar(scalar)) scalar.value = to;
    else task.node.set('name', to);
    for (const t of tasks) {
      const list = t.node.get('runAfter');
      if (isSeq(list))
        for (const item of list.items) if (isScalar(item) && String(item.value) === from) item.value = to;
    }
    const old = `$(tasks.${from}.`;
    visit(specOf(open)!, {
      Scalar(_key, node) {
        if (typeof node.value === 'string' && node.value.includes(old))
          node.value = node.value.split(old).join(`$(tasks.${to}.`);
      },
    });
  });
}

/** Makes `to` run after `from` (adds `from` to its `runAfter`); refuses a cycle. */
export function addRunAfter(text: string, from: string, to: string): EditResult {
  return editPipeline(text, (open) => {
    const { tasks, task } = find(open, to);
    const source = tasks.find((t) => t.name === from);
    if (!task || !source) return fail('noTask');
    if (task.isFinally || source.isFinally) return fail('finally');
    if (wouldCycle(tasks, to, [from])) return fail('cycle');
    const list = task.node.get('runAfter');
    if (isSeq(list)) {
      if (!stringsOf(list).includes(from)) list.add(open.doc.createNode(from));
    } else placeKey(open, task.node, 'runAfter', flowList(open, [from]), ['name']);
  });
}

/** Takes `from` out of `to`'s `runAfter` (a result reference stays: it is a param). */
export function removeRunAfter(text: string, from: string, to: string): EditResult {
  return editPipeline(text, (open) => {
    const { task } = find(open, to);
    if (!task) return fail('noTask');
    dropFromRunAfter(task, from);
  });
}

/** Sets (or with null, removes) a param of a task; refuses a result reference that makes a cycle. */
export function setTaskParam(
  text: string,
  taskName: string,
  name: string,
  value: ParamValue | null,
): EditResult {
  return editPipeline(text, (open) => {
    const { tasks, task } = find(open, taskName);
    if (!task) return fail('noTask');
    if (value !== null && wouldCycle(tasks, taskName, referencedIn([value]))) return fail('cycle');
    let params = task.node.get('params');
    if (!isSeq(params)) {
      if (value === null) return;
      params = open.doc.createNode([]) as YAMLSeq;
      placeKey(open, task.node, 'params', params as YAMLSeq, ['name', 'runAfter', 'taskRef']);
    }
    const list = params as YAMLSeq;
    const item = list.items.find((i): i is YAMLMap => isMap(i) && i.get('name') === name);
    if (value === null) {
      if (item) list.items.splice(list.items.indexOf(item), 1);
      if (list.items.length === 0) task.node.delete('params');
      return;
    }
    if (!item) {
      if (list.items.length === 0) list.flow = false;
      list.add(open.doc.createNode({ name, value }));
      return;
    }
    const current = item.get('value', true);
    if (isScalar(current) && typeof value === 'string') {
      // an empty value had to be quoted; what replaces it is written plain when it can be
      if (current.value === '' || current.value === null) current.type = Scalar.PLAIN;
      current.value = value;
    } else item.set('value', open.doc.createNode(value));
  });
}

/**
 * Sets a task's `when` expressions (none: removes `when`); `cel:` expressions already there are
 * kept. Refuses a result reference that makes a cycle.
 */
export function setWhen(text: string, taskName: string, whens: readonly WhenExpression[]): EditResult {
  return editPipeline(text, (open) => {
    const { tasks, task } = find(open, taskName);
    if (!task) return fail('noTask');
    const refs = referencedIn(whens.flatMap((w) => [w.input, ...w.values]));
    if (wouldCycle(tasks, taskName, refs)) return fail('cycle');
    const existing = task.node.get('when');
    const kept = isSeq(existing) ? existing.items.filter((i) => isMap(i) && i.has('cel')) : [];
    const made = whens.map((w) => {
      const node = open.doc.createNode({ input: w.input, operator: w.operator, values: [] }) as YAMLMap;
      node.set('values', flowList(open, w.values));
      return node;
    });
    const items = [...kept, ...made];
    if (items.length === 0) {
      task.node.delete('when');
      return;
    }
    if (isSeq(existing)) {
      existing.items = items;
      existing.flow = false;
    } else {
      const list = open.doc.createNode([]) as YAMLSeq;
      list.items = items;
      placeKey(open, task.node, 'when', list, ['name', 'runAfter', 'taskRef', 'params']);
    }
  });
}
