import { isMap, parseAllDocuments, type YAMLMap } from 'yaml';
import type { TaskTemplate } from '@slipway/contracts';
import { isRecord, type Value } from '../pipelines/definition-parse';
import { buildRunGraph, type RunGraph } from '../pipelines/run-graph';
import { parseProblem, specOf, tasksOf } from './pipeline-doc';
import type { NewTask, ParamValue, WhenExpression } from './pipeline-edits';

/**
 * What the studio shows of a definition: its tasks (for the side panel) and its graph (for the
 * canvas, built as the run page builds it), read with the same parser the edits use.
 */
export interface TaskInfo {
  name: string;
  isFinally: boolean;
  /** the catalogue task it references, or null for an inline `taskSpec` */
  taskRef: string | null;
  params: { name: string; value: ParamValue }[];
  runAfter: string[];
  when: WhenExpression[];
  /** `cel:` when expressions, kept but not edited here */
  celWhen: number;
  /** the results its inline `taskSpec` declares */
  results: string[];
}

export interface PipelineModel {
  tasks: TaskInfo[];
  graph: RunGraph;
  /** Tasks defined in the same text (a YAML stream): name → their results */
  localTasks: Record<string, string[]>;
  /** the workspaces the pipeline declares */
  workspaces: string[];
}

export type ReadResult = { ok: true; model: PipelineModel } | { ok: false; problem: string | null };

/** Scalars as strings, as the run page's parser reads them. */
function plain(value: unknown): Value {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, plain(v)]),
    );
  return String(value);
}

const strings = (value: Value | undefined): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const names = (value: Value | undefined): string[] =>
  Array.isArray(value)
    ? value.filter(isRecord).flatMap((r) => (typeof r.name === 'string' ? [r.name] : []))
    : [];

function paramValue(value: Value | undefined): ParamValue {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

function taskInfo(raw: Record<string, Value>, isFinally: boolean): TaskInfo {
  const ref = isRecord(raw.taskRef) && typeof raw.taskRef.name === 'string' ? raw.taskRef.name : null;
  const whens = Array.isArray(raw.when) ? raw.when.filter(isRecord) : [];
  return {
    name: typeof raw.name === 'string' ? raw.name : '',
    isFinally,
    taskRef: ref,
    params: (Array.isArray(raw.params) ? raw.params.filter(isRecord) : []).map((p) => ({
      name: typeof p.name === 'string' ? p.name : '',
      value: paramValue(p.value),
    })),
    runAfter: strings(raw.runAfter),
    when: whens
      .filter((w) => w.cel === undefined)
      .map((w) => ({
        input: typeof w.input === 'string' ? w.input : '',
        operator: w.operator === 'notin' ? 'notin' : 'in',
        values: strings(w.values),
      })),
    celWhen: whens.filter((w) => w.cel !== undefined).length,
    results: isRecord(raw.taskSpec) ? names(raw.taskSpec.results) : [],
  };
}

/** Reads the text's Pipeline; a text that does not parse answers its first problem. */
export function readPipeline(text: string): ReadResult {
  let docs;
  try {
    docs = parseAllDocuments(text);
  } catch (err) {
    return { ok: false, problem: err instanceof Error ? err.message : String(err) };
  }
  if (!Array.isArray(docs)) return { ok: false, problem: null };
  const problem = parseProblem(docs);
  if (problem) return { ok: false, problem };
  const maps = docs.filter((d) => isMap(d.contents));
  const doc = maps.find((d) => (d.contents as YAMLMap).get('kind') === 'Pipeline') ?? maps[0];
  if (!doc) return { ok: false, problem: null };
  const open = { doc, root: doc.contents as YAMLMap };
  const spec = plain(specOf(open)?.toJSON() ?? null);
  const localTasks: Record<string, string[]> = {};
  for (const other of maps) {
    const value = plain(other.toJS());
    if (other === doc || !isRecord(value) || value.kind !== 'Task' || !isRecord(value.metadata)) continue;
    const name = value.metadata.name;
    if (typeof name === 'string') localTasks[name] = isRecord(value.spec) ? names(value.spec.results) : [];
  }
  const tasks = tasksOf(specOf(open)).map((t) =>
    taskInfo(plain(t.node.toJSON()) as Record<string, Value>, t.isFinally),
  );
  const record = isRecord(spec) ? spec : null;
  return {
    ok: true,
    model: {
      tasks,
      graph: buildRunGraph(record, []),
      localTasks,
      workspaces: names(record?.workspaces),
    },
  };
}

/** A catalogue task, as the studio offers it. */
export interface CatalogueItem {
  id: string;
  name: string;
  description: string;
  builtIn: boolean;
  params: { name: string; default?: ParamValue }[];
  results: string[];
  workspaces: { name: string; optional: boolean }[];
}

/** A template holding a Task (not a StepAction, which steps reference and pipelines cannot: decision 035). */
export function isTaskTemplate(template: Pick<TaskTemplate, 'definition'>): boolean {
  return !/^\s*"?kind"?\s*:\s*"?StepAction"?\s*,?\s*$/m.test(template.definition);
}

/** What a task template declares (its Task's spec), for the catalogue. */
export function catalogueItemOf(template: TaskTemplate): CatalogueItem {
  let spec: Value = null;
  try {
    const docs = parseAllDocuments(template.definition);
    if (Array.isArray(docs) && !parseProblem(docs)) {
      const values = docs.map((d) => plain(d.toJS()));
      const task = values.find((v) => isRecord(v) && v.kind === 'Task') ?? values.find(isRecord);
      spec = isRecord(task) && isRecord(task.spec) ? task.spec : null;
    }
  } catch {
    spec = null;
  }
  const record = isRecord(spec) ? spec : {};
  const params = (Array.isArray(record.params) ? record.params.filter(isRecord) : []).flatMap((p) => {
    if (typeof p.name !== 'string') return [];
    const d = p.default;
    if (d === undefined || d === null) return [{ name: p.name }];
    if (typeof d === 'string' || Array.isArray(d)) return [{ name: p.name, default: paramValue(d) }];
    return []; // an object default stays the task's own
  });
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    builtIn: template.builtIn,
    params,
    results: names(record.results),
    workspaces: (Array.isArray(record.workspaces) ? record.workspaces.filter(isRecord) : []).flatMap((w) =>
      typeof w.name === 'string' ? [{ name: w.name, optional: w.optional === 'true' }] : [],
    ),
  };
}

/** The task a catalogue item adds: a `taskRef`, its params at their defaults, its workspaces bound. */
export function newTaskFrom(item: CatalogueItem, pipelineWorkspaces: readonly string[]): NewTask {
  const workspaces = item.workspaces
    .filter((w) => !w.optional && pipelineWorkspaces.length > 0)
    .map((w) => ({
      name: w.name,
      workspace: pipelineWorkspaces.includes(w.name) ? w.name : pipelineWorkspaces[0]!,
    }));
  return {
    name: item.name,
    taskRef: item.name,
    params: Object.fromEntries(item.params.map((p) => [p.name, p.default ?? ''])),
    ...(workspaces.length ? { workspaces } : {}),
  };
}

/** A task of its own, with one step to fill in (the catalogue's "inline task"). */
export const INLINE_TASK: NewTask = {
  name: 'task',
  taskSpec: { steps: [{ name: 'run', image: 'alpine', script: 'echo "hello"\n' }] },
};

/** The results a task is known to produce: from its inline spec, a Task in the text, or the catalogue. */
export function resultsOf(
  task: TaskInfo,
  model: PipelineModel,
  catalogue: readonly CatalogueItem[],
): string[] {
  if (!task.taskRef) return task.results;
  return model.localTasks[task.taskRef] ?? catalogue.find((c) => c.name === task.taskRef)?.results ?? [];
}
