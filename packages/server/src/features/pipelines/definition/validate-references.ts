import type { DefinitionIssue } from './definition-issue.js';
import type { PipelineSpec, PipelineTask } from './model.js';
import { findReferences, walkStrings, type Reference } from './references.js';
import { taskSpecFor, type TaskCatalogue } from './task-catalogue.js';

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

interface Scope {
  spec: PipelineSpec;
  catalogue: TaskCatalogue;
  byName: Map<string, TaskEntry>;
}

function tasksReference(reference: Reference, from: TaskEntry | null, scope: Scope): string | null {
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
  if (target.isFinally && from)
    return `task "${reference.task}" is a finally task: no task can use the results of finally tasks`;
  const matrixed = Boolean(target.task.matrix?.params?.length || target.task.matrix?.include?.length);
  if (reference.kind === 'matrixLength') return matrixed ? null : `task "${reference.task}" has no matrix`;
  if (reference.kind !== 'taskResult') return null;
  const spec = taskSpecFor(target.task, scope.catalogue);
  if (spec && !spec.results?.some((r) => r.name === reference.result))
    return `task "${reference.task}" declares no result "${reference.result}"`;
  if (matrixed && reference.selector?.kind !== 'star' && reference.selector?.kind !== 'index')
    return `"${reference.task}" is a matrix, its results are arrays: use $(tasks.${reference.task}.results.${reference.result}[*])`;
  return null;
}

function paramReference(reference: Reference & { kind: 'param' }, spec: PipelineSpec): string | null {
  const declared = spec.params?.find((p) => p.name === reference.name);
  if (!declared) return `the pipeline declares no param "${reference.name}"`;
  const selector = reference.selector;
  if (declared.type === 'string' && selector) return `param "${reference.name}" is a string`;
  if (declared.type !== 'string' && !selector)
    return `param "${reference.name}" is an ${declared.type}: use $(params.${reference.name}[*])`;
  if (declared.type === 'object' && selector?.kind === 'key' && declared.properties)
    if (!Object.hasOwn(declared.properties, selector.key))
      return `object param "${reference.name}" has no key "${selector.key}"`;
  return null;
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
) {
  let problem: string | null = null;
  let rule = RULES[reference.kind] ?? 'reference-scope';
  switch (reference.kind) {
    case 'param':
      if (inTaskSpec) return null; // checked against the taskSpec's params by validateTask
      if (!from) problem = 'pipeline results can only use task results';
      else {
        problem = paramReference(reference, scope.spec);
        if (problem && !problem.startsWith('the pipeline declares')) rule = 'param-usage';
      }
      break;
    case 'taskResult':
    case 'matrixLength':
    case 'taskStatus':
    case 'taskReason':
    case 'tasksStatus':
      if (!from && reference.kind !== 'taskResult') problem = 'pipeline results can only use task results';
      else problem = tasksReference(reference, from, scope);
      if (problem?.startsWith('unknown task')) rule = 'unknown-task-in-reference';
      break;
    case 'context':
      if (inTaskSpec) return null;
      if (!PIPELINE_CONTEXT.includes(reference.variable)) {
        problem = 'unknown context variable in a pipeline';
        rule = 'unknown-context';
      }
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
): DefinitionIssue[] {
  const scope: Scope = { spec, catalogue, byName: new Map(entries.map((e) => [e.task.name, e])) };
  const issues: DefinitionIssue[] = [];
  const scan = (value: unknown, path: string, from: TaskEntry | null, inTaskSpec: boolean) => {
    for (const { path: at, text } of walkStrings(value, [path]))
      for (const reference of findReferences(text)) {
        const issue = check(reference, at, from, scope, inTaskSpec);
        if (issue) issues.push(issue);
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
