import { toValidationResult, type DefinitionIssue, type ValidationResult } from './definition-issue.js';
import { findCycle, pipelineEdges } from './graph.js';
import type { Param, Pipeline, PipelineSpec, PipelineTask, TaskSpec } from './model.js';
import { paramValueType } from './model.js';
import { wholeReference } from './references.js';
import { taskLabel, taskSpecFor, type TaskCatalogue } from './task-catalogue.js';
import { referenceIssues, type Propagated, type TaskEntry } from './validate-references.js';
import { duplicateNames, paramDefaultIssues, taskSpecIssues } from './validate-task.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface PipelineValidationOptions {
  /** Where the spec sits; `spec` for a Pipeline, `spec.pipelineSpec` inside a PipelineRun. */
  basePath?: string;
  /** The params and workspaces of the PipelineRun an embedded pipelineSpec sits in. */
  propagated?: Propagated;
}

function nameIssues(entries: readonly TaskEntry[]): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const first = new Map<string, string>();
  for (const { task, path } of entries) {
    if (!DNS_LABEL.test(task.name) || task.name.length > 63)
      issues.push({
        path: `${path}.name`,
        rule: 'invalid-name',
        message: `task name "${task.name}" must be lower-case letters, digits and '-' (at most 63)`,
      });
    const seen = first.get(task.name);
    if (seen) {
      const message = `duplicate task name "${task.name}" (first at ${seen}): names are unique across tasks and finally`;
      issues.push({ path: `${path}.name`, rule: 'duplicate-task', message });
    } else first.set(task.name, path);
  }
  return issues;
}

function taskRefIssues({ task, path }: TaskEntry, catalogue: TaskCatalogue): DefinitionIssue[] {
  const ref = task.taskRef;
  if (ref && task.taskSpec)
    return [{ path, rule: 'task-ref', message: `task "${task.name}": give taskRef or taskSpec, not both` }];
  if (task.taskSpec) return [];
  if (!ref) return [{ path, rule: 'task-ref', message: `task "${task.name}" needs a taskRef or a taskSpec` }];
  if (ref.resolver)
    return [
      {
        path: `${path}.taskRef.resolver`,
        rule: 'unsupported',
        message: `remote resolution (resolver: ${ref.resolver}) is not supported: add the Task to the catalogue and reference it by name`,
      },
    ];
  // Tekton reads a namespaced Task for any kind but ClusterTask, whatever its case (`kind: task`)
  if (ref.kind && ref.kind.toLowerCase() !== 'task' && ref.kind !== 'ClusterTask')
    return [
      {
        path: `${path}.taskRef.kind`,
        rule: 'unsupported',
        message: `custom tasks (kind ${ref.kind}) are not supported`,
      },
    ];
  if (!ref.name)
    return [{ path: `${path}.taskRef.name`, rule: 'task-ref', message: 'taskRef.name is required' }];
  if (taskSpecFor(task, catalogue)) return [];
  return [
    {
      path: `${path}.taskRef.name`,
      rule: 'unknown-task-ref',
      message: `unknown task "${ref.name}": not in the task catalogue and no taskSpec given`,
    },
  ];
}

function runAfterIssues(
  { task, path, isFinally }: TaskEntry,
  byName: Map<string, TaskEntry>,
): DefinitionIssue[] {
  if (isFinally && task.runAfter?.length)
    return [
      {
        path: `${path}.runAfter`,
        rule: 'finally-run-after',
        message: 'finally tasks cannot use runAfter: they run after all tasks',
      },
    ];
  return (task.runAfter ?? []).flatMap((target, k) => {
    const found = byName.get(target);
    const at = `${path}.runAfter[${k}]`;
    if (!found) return [{ path: at, rule: 'unknown-run-after', message: `unknown task "${target}"` }];
    if (found.isFinally)
      return [
        {
          path: at,
          rule: 'run-after-finally',
          message: `"${target}" is a finally task: no task can run after it`,
        },
      ];
    return [];
  });
}

const staticType = (value: Param['value']) => {
  if (typeof value === 'string' && wholeReference(value)) return null; // decided at run time
  return paramValueType(value);
};

function paramIssues(
  { task, path }: TaskEntry,
  spec: TaskSpec,
  pipelineParams: readonly string[],
): DefinitionIssue[] {
  const label = taskLabel(task);
  const declared = new Map((spec.params ?? []).map((p) => [p.name, p]));
  const issues = duplicateNames(task.params, `${path}.params`, 'duplicate-param', 'param');
  const given = new Set<string>();
  (task.params ?? []).forEach((param, k) => {
    given.add(param.name);
    const target = declared.get(param.name);
    if (!target && task.taskSpec) return; // propagated into the inline taskSpec, declared or not
    if (!target)
      return issues.push({
        path: `${path}.params[${k}].name`,
        rule: 'unknown-param',
        message: `${label} declares no param "${param.name}"`,
      });
    const type = staticType(param.value);
    if (type && type !== target.type)
      issues.push({
        path: `${path}.params[${k}].value`,
        rule: 'param-type',
        message: `param "${param.name}" of ${label} is of type ${target.type}, given ${type === 'array' ? 'an' : 'a'} ${type}`,
      });
  });
  const matrixParams = [
    ...(task.matrix?.params ?? []).map((p, k) => ({ p, at: `${path}.matrix.params[${k}]` })),
    ...(task.matrix?.include ?? []).flatMap((inc, j) =>
      inc.params.map((p, k) => ({ p, at: `${path}.matrix.include[${j}].params[${k}]` })),
    ),
  ];
  for (const { p, at } of matrixParams) {
    if (!declared.has(p.name) && !task.taskSpec)
      issues.push({
        path: `${at}.name`,
        rule: 'unknown-param',
        message: `matrix param "${p.name}": ${label} declares no param "${p.name}"`,
      });
    else if (task.params?.some((q) => q.name === p.name))
      issues.push({
        path: `${at}.name`,
        rule: 'duplicate-param',
        message: `param "${p.name}" is given both in params and in matrix`,
      });
  }
  (task.matrix?.params ?? []).forEach((p, k) => {
    const type = staticType(p.value);
    if (type && type !== 'array')
      issues.push({
        path: `${path}.matrix.params[${k}].value`,
        rule: 'matrix-param-type',
        message: `matrix param "${p.name}" must be an array`,
      });
  });
  for (const p of matrixParams) given.add(p.p.name);
  // an inline taskSpec's param takes the pipeline's value of that name when its task passes none
  if (task.taskSpec) for (const name of pipelineParams) given.add(name);
  for (const param of spec.params ?? [])
    if (param.default === undefined && !given.has(param.name))
      issues.push({
        path: `${path}.params`,
        rule: 'missing-param',
        message: `${label} needs param "${param.name}" (it has no default)`,
      });
  return issues;
}

function workspaceIssues(
  { task, path }: TaskEntry,
  spec: TaskSpec,
  pipeline: PipelineSpec,
  propagated: Propagated,
): DefinitionIssue[] {
  const label = taskLabel(task);
  const pipelineWorkspaces = [
    ...(pipeline.workspaces ?? []).map((w) => w.name),
    ...(propagated.workspaces ?? []),
  ];
  const issues = duplicateNames(task.workspaces, `${path}.workspaces`, 'duplicate-workspace', 'workspace');
  (task.workspaces ?? []).forEach((binding, k) => {
    const target = binding.workspace ?? binding.name;
    if (!pipeline.workspaces?.some((w) => w.name === target) && !propagated.workspaces?.includes(target))
      issues.push({
        path: `${path}.workspaces[${k}].workspace`,
        rule: 'unknown-workspace',
        message: `the pipeline declares no workspace "${target}"`,
      });
    // an inline taskSpec gets the workspaces its pipeline task binds, declared or not (propagated)
    if (!task.taskSpec && !spec.workspaces?.some((w) => w.name === binding.name))
      issues.push({
        path: `${path}.workspaces[${k}].name`,
        rule: 'unknown-task-workspace',
        message: `${label} declares no workspace "${binding.name}"`,
      });
  });
  for (const workspace of spec.workspaces ?? [])
    if (
      !workspace.optional &&
      !task.workspaces?.some((b) => b.name === workspace.name) &&
      // an inline taskSpec gets the pipeline's (or the run's) workspace of that name
      !(task.taskSpec && pipelineWorkspaces.includes(workspace.name))
    )
      issues.push({
        path: `${path}.workspaces`,
        rule: 'missing-workspace',
        message: `${label} needs workspace "${workspace.name}"`,
      });
  return issues;
}

function whenIssues({ task, path }: TaskEntry): DefinitionIssue[] {
  return (task.when ?? []).flatMap((when, k) => {
    const at = `${path}.when[${k}]`;
    if (when.cel !== undefined)
      return [
        {
          path: `${at}.cel`,
          rule: 'unsupported',
          message: 'CEL when expressions are not supported: use input, operator and values',
        },
      ];
    const issues: DefinitionIssue[] = [];
    if (when.input === undefined)
      issues.push({ path: `${at}.input`, rule: 'when-input', message: 'a when expression needs an input' });
    if (when.operator !== 'in' && when.operator !== 'notin')
      issues.push({
        path: `${at}.operator`,
        rule: 'when-operator',
        message: `operator "${when.operator ?? ''}" is not supported: use in or notin`,
      });
    if (!when.values?.length)
      issues.push({
        path: `${at}.values`,
        rule: 'when-values',
        message: 'a when expression needs at least one value',
      });
    return issues;
  });
}

function cycleIssues(spec: PipelineSpec, entries: readonly TaskEntry[]): DefinitionIssue[] {
  const names = spec.tasks.map((t) => t.name);
  const edges = pipelineEdges(spec).filter((e) => names.includes(e.to));
  const cycle = findCycle(names, edges);
  if (!cycle) return [];
  const path = entries.find((e) => e.task.name === cycle[0])?.path ?? 'spec.tasks';
  return [
    { path, rule: 'cycle', message: `cycle: ${cycle.join(' → ')} (through runAfter and result references)` },
  ];
}

/** The params a pipeline task passes, in params and in its matrix. */
function givenParams(task: PipelineTask): string[] {
  return [
    ...(task.params ?? []),
    ...(task.matrix?.params ?? []),
    ...(task.matrix?.include ?? []).flatMap((inc) => inc.params),
  ].map((p) => p.name);
}

/** Validates a Pipeline against itself and the task catalogue; every error names its path and rule. */
export function validatePipeline(
  pipeline: Pipeline | PipelineSpec,
  tasksByName: TaskCatalogue,
  options: PipelineValidationOptions = {},
): ValidationResult {
  const spec = 'spec' in pipeline ? pipeline.spec : pipeline;
  const base = options.basePath ?? 'spec';
  const entries: TaskEntry[] = [
    ...spec.tasks.map((task, i) => ({ task, path: `${base}.tasks[${i}]`, isFinally: false })),
    ...(spec.finally ?? []).map((task, i) => ({ task, path: `${base}.finally[${i}]`, isFinally: true })),
  ];
  const byName = new Map<string, TaskEntry>();
  for (const entry of entries) if (!byName.has(entry.task.name)) byName.set(entry.task.name, entry);
  const issues: DefinitionIssue[] = [
    ...duplicateNames(spec.params, `${base}.params`, 'duplicate-param', 'param'),
    ...duplicateNames(spec.workspaces, `${base}.workspaces`, 'duplicate-workspace', 'workspace'),
    ...duplicateNames(spec.results, `${base}.results`, 'duplicate-result', 'result'),
    ...paramDefaultIssues(spec.params, `${base}.params`),
    ...nameIssues(entries),
  ];
  if (spec.tasks.length === 0)
    issues.push({ path: `${base}.tasks`, rule: 'no-tasks', message: 'a Pipeline needs at least one task' });
  const propagated = options.propagated ?? {};
  const pipelineParams = [...(spec.params ?? []).map((p) => p.name), ...(propagated.params ?? [])];
  const pipelineWorkspaces = [
    ...(spec.workspaces ?? []).map((w) => w.name),
    ...(propagated.workspaces ?? []),
  ];
  for (const entry of entries) {
    issues.push(...taskRefIssues(entry, tasksByName), ...runAfterIssues(entry, byName), ...whenIssues(entry));
    const taskSpec = taskSpecFor(entry.task, tasksByName);
    if (!taskSpec) continue;
    issues.push(
      ...paramIssues(entry, taskSpec, pipelineParams),
      ...workspaceIssues(entry, taskSpec, spec, propagated),
    );
    if (entry.task.taskSpec)
      issues.push(
        ...taskSpecIssues(entry.task.taskSpec, {
          basePath: `${entry.path}.taskSpec`,
          propagatedParams: [...pipelineParams, ...givenParams(entry.task)],
          propagatedWorkspaces: [...pipelineWorkspaces, ...(entry.task.workspaces ?? []).map((b) => b.name)],
          inPipeline: true,
        }),
      );
  }
  issues.push(
    ...referenceIssues(spec, entries, tasksByName, base, propagated),
    ...cycleIssues(spec, entries),
  );
  return toValidationResult(issues);
}
