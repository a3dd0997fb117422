import type { DefinitionIssue } from './definition-issue.js';
import type { PipelineSpec, PipelineTask, TaskResult } from './model.js';
import { findReferences, walkStrings, wholeReference, type Reference, type Selector } from './references.js';
import { taskSpecFor, type TaskCatalogue } from './task-catalogue.js';
import { resultType } from './typed-results.js';

/** One pipeline task with where it sits. */
export interface TaskEntry {
  task: PipelineTask;
  path: string;
  isFinally: boolean;
}

const PIPELINE_CONTEXT = [
  'pipelineRun.name',
  'pipelineRun.uid',
  'pipelineRun.namespace',
  'pipeline.name',
  'pipelineTask.retries',
];

/** What a PipelineRun around an embedded pipelineSpec adds (Tekton propagates both). */
export interface Propagated {
  /** The PipelineRun's params: usable without the pipelineSpec declaring them. */
  params?: readonly string[];
  /** The PipelineRun's workspaces: usable without the pipelineSpec declaring them. */
  workspaces?: readonly string[];
}

interface Scope {
  spec: PipelineSpec;
  catalogue: TaskCatalogue;
  byName: Map<string, TaskEntry>;
  propagated: Propagated;
}

function tasksReference(
  reference: Reference,
  from: TaskEntry | null,
  scope: Scope,
  alone: boolean,
): string | null {
  if (reference.kind === 'tasksStatus')
    return from?.isFinally ? null : 'only finally tasks can read $(tasks.status)';
  if (!('task' in reference)) return null;
  const target = scope.byName.get(reference.task);
  if (!target) return `unknown task "${reference.task}"`;
  if (reference.kind === 'taskStatus' || reference.kind === 'taskReason') {
    if (!from?.isFinally) return 'only finally tasks can read task statuses';
    if (target.isFinally)
      return `task "${reference.task}" is a finally task: finally tasks see the statuses of tasks only`;
    return null;
  }
  if (reference.kind === 'taskResult' && reference.finally) {
    if (from) return 'only pipeline results can read the results of finally tasks';
    if (!target.isFinally)
      return `task "${reference.task}" is not a finally task: use $(tasks.${reference.task}.…)`;
  } else if (target.isFinally && from)
    return `task "${reference.task}" is a finally task: no task can use the results of finally tasks`;
  else if (target.isFinally && reference.kind === 'taskResult')
    return `task "${reference.task}" is a finally task: read its results as $(finally.${reference.task}.results.${reference.result})`;
  const matrixed = Boolean(target.task.matrix?.params?.length || target.task.matrix?.include?.length);
  if (reference.kind === 'matrixLength') return matrixed ? null : `task "${reference.task}" has no matrix`;
  if (reference.kind !== 'taskResult') return null;
  const spec = taskSpecFor(target.task, scope.catalogue);
  const declared = spec?.results?.find((r) => r.name === reference.result);
  if (spec && !declared) return `task "${reference.task}" declares no result "${reference.result}"`;
  if (matrixed && reference.selector?.kind !== 'star' && reference.selector?.kind !== 'index')
    return `"${reference.task}" is a matrix, its results are arrays: use $(tasks.${reference.task}.results.${reference.result}[*])`;
  if (!declared || matrixed) return null;
  if (resultType(declared) !== 'string' && !reference.selector && !alone)
    return `result "${reference.task}.${reference.result}" is an ${resultType(declared)}: only $(tasks.${reference.task}.results.${reference.result}[*]) standing alone takes it whole`;
  return selectorProblem(`result "${reference.task}.${reference.result}"`, declared, reference.selector);
}

/** Whether a selector fits a declared string, array or object (and an object's declared keys). */
function selectorProblem(
  what: string,
  declared: Pick<TaskResult, 'type' | 'properties'>,
  selector: Selector | undefined,
): string | null {
  const type = resultType(declared);
  if (!selector) return null; // a whole array or object: checked by where it stands
  if (type === 'string') return `${what} is a string`;
  if (selector.kind === 'index' && type !== 'array') return `${what} is an object: use .<key>`;
  if (selector.kind === 'key' && type !== 'object') return `${what} is an array: use [*] or [i]`;
  if (selector.kind === 'key' && declared.properties && !Object.hasOwn(declared.properties, selector.key))
    return `${what} has no key "${selector.key}"`;
  return null;
}

/**
 * A matrixed task's `displayName` and its `matrix.include[].name` may name the task's params and
 * matrix params: Tekton fills them in for each combination (docs/matrix.md "Display name").
 */
function matrixLabel(reference: Reference & { kind: 'param' }, path: string, from: TaskEntry): boolean {
  const matrix = from.task.matrix;
  if (!matrix) return false;
  const label = path === `${from.path}.displayName` || path.startsWith(`${from.path}.matrix.include[`);
  if (!label || !/(displayName|\.name)$/.test(path)) return false;
  const names = [
    ...(from.task.params ?? []),
    ...(matrix.params ?? []),
    ...(matrix.include ?? []).flatMap((i) => i.params),
  ].map((p) => p.name);
  return names.includes(reference.name);
}

/** Where a whole array may stand: an element of an array param value, of matrix values or of when values. */
const ARRAY_ELEMENT = /\.(params\[\d+\]\.value|values)\[\d+\]$/;

function paramReference(
  reference: Reference & { kind: 'param' },
  scope: Scope,
  wholeElement: boolean,
): string | null {
  const declared = scope.spec.params?.find((p) => p.name === reference.name);
  if (!declared)
    return scope.propagated.params?.includes(reference.name)
      ? null
      : `the pipeline declares no param "${reference.name}"`;
  const selector = reference.selector;
  if (declared.type === 'string' && selector) return `param "${reference.name}" is a string`;
  // Tekton expands `$(params.a)` of an array standing alone as an element, as it does `[*]`
  if (declared.type === 'array' && !selector && wholeElement) return null;
  if (declared.type !== 'string' && !selector)
    return `param "${reference.name}" is an ${declared.type}: use $(params.${reference.name}[*])`;
  if (declared.type === 'object' && selector?.kind === 'key' && declared.properties)
    if (!Object.hasOwn(declared.properties, selector.key))
      return `object param "${reference.name}" has no key "${selector.key}"`;
  return null;
}

/**
 * `$(workspaces.w.bound)` is the pipeline's workspace w, bound by the run or not. The path,
 * claim and volume are the Task's: a pipeline task may pass them in its params, and its Task
 * resolves them against its own workspace w.
 */
function workspaceReference(
  reference: Reference & { kind: 'workspace' },
  path: string,
  from: TaskEntry | null,
  scope: Scope,
): string | null {
  const name = reference.workspace;
  if (reference.property === 'bound') {
    if (!from) return 'pipeline results can only use task results';
    const declared = scope.spec.workspaces?.some((w) => w.name === name);
    return declared || scope.propagated.workspaces?.includes(name)
      ? null
      : `the pipeline declares no workspace "${name}"`;
  }
  if (!from || !/\.params\[\d+\]\.value/.test(path))
    return `a pipeline can pass the Task's workspace ${reference.property} only in a pipeline task's params`;
  const spec = taskSpecFor(from.task, scope.catalogue);
  const known =
    !spec ||
    spec.workspaces?.some((w) => w.name === name) ||
    (from.task.taskSpec && from.task.workspaces?.some((b) => b.name === name));
  return known ? null : `task "${from.task.name}" has no workspace "${name}" for it to resolve`;
}

const RULES: Record<string, string> = {
  param: 'unknown-param-reference',
  taskResult: 'result-reference',
  matrixLength: 'result-reference',
  taskStatus: 'status-reference',
  taskReason: 'status-reference',
  tasksStatus: 'status-reference',
};

/** Checks one reference found in pipeline-level text (`from` is null for pipeline results). */
function check(
  reference: Reference,
  path: string,
  from: TaskEntry | null,
  scope: Scope,
  inTaskSpec: boolean,
  alone: boolean,
) {
  const wholeElement = alone && ARRAY_ELEMENT.test(path);
  let problem: string | null = null;
  let rule = RULES[reference.kind] ?? 'reference-scope';
  switch (reference.kind) {
    case 'param':
      if (inTaskSpec) return null; // checked against the taskSpec's params by validateTask
      if (!from) problem = 'pipeline results can only use task results';
      else if (matrixLabel(reference, path, from)) problem = null;
      else {
        problem = paramReference(reference, scope, wholeElement);
        if (problem && !problem.startsWith('the pipeline declares')) rule = 'param-usage';
      }
      break;
    case 'workspace':
      if (inTaskSpec) return null; // checked against the taskSpec's workspaces by validateTask
      problem = workspaceReference(reference, path, from, scope);
      if (problem?.includes('declares no workspace')) rule = 'unknown-workspace';
      break;
    case 'taskResult':
    case 'matrixLength':
    case 'taskStatus':
    case 'taskReason':
    case 'tasksStatus':
      if (!from && reference.kind !== 'taskResult') problem = 'pipeline results can only use task results';
      else problem = tasksReference(reference, from, scope, alone);
      if (problem?.startsWith('unknown task')) rule = 'unknown-task-in-reference';
      break;
    case 'context':
      if (inTaskSpec) return null;
      if (!PIPELINE_CONTEXT.includes(reference.variable)) {
        problem = 'unknown context variable in a pipeline';
        rule = 'unknown-context';
      } else if (reference.variable === 'pipelineTask.retries' && !/\.params\[\d+\]\.value/.test(path))
        problem = "Tekton substitutes it only in a pipeline task's params and matrix params";
      break;
    case 'unsupported':
      if (inTaskSpec) return null;
      return { path, rule: 'unsupported-reference', message: reference.message };
    default:
      if (!inTaskSpec) problem = "can only be used inside a task's steps";
  }
  return problem ? { path, rule, message: `${reference.raw}: ${problem}` } : null;
}

/** Every `$(...)` in pipeline tasks and pipeline results, checked against the pipeline. */
export function referenceIssues(
  spec: PipelineSpec,
  entries: readonly TaskEntry[],
  catalogue: TaskCatalogue,
  base: string,
  propagated: Propagated = {},
): DefinitionIssue[] {
  const scope: Scope = { spec, catalogue, byName: new Map(entries.map((e) => [e.task.name, e])), propagated };
  const issues: DefinitionIssue[] = [];
  const scan = (value: unknown, path: string, from: TaskEntry | null, inTaskSpec: boolean) => {
    for (const { path: at, text } of walkStrings(value, [path])) {
      const alone = wholeReference(text) !== null;
      for (const reference of findReferences(text)) {
        const issue = check(reference, at, from, scope, inTaskSpec, alone);
        if (issue) issues.push(issue);
      }
    }
  };
  for (const entry of entries) {
    const { taskSpec, ...rest } = entry.task;
    scan(rest, entry.path, entry, false);
    if (taskSpec) scan(taskSpec, `${entry.path}.taskSpec`, entry, true);
  }
  (spec.results ?? []).forEach((result, i) => scan(result.value, `${base}.results[${i}].value`, null, false));
  return issues;
}
