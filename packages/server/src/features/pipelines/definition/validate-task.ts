import { toValidationResult, type DefinitionIssue, type ValidationResult } from './definition-issue.js';
import type { ParamSpec, Task, TaskSpec } from './model.js';
import { paramValueType } from './model.js';
import { findReferences, walkStrings, type Reference } from './references.js';
import { applyStepTemplate } from './step-template.js';
import { specOf } from './task-catalogue.js';
import {
  isStepReference,
  stepLevelIssues,
  stepReferenceIssue,
  taskStepIssues,
} from './validate-step-refs.js';

export interface TaskValidationOptions {
  /** Where the spec sits, e.g. `spec.tasks[1].taskSpec`; defaults to `spec`. */
  basePath?: string;
  /** Params visible without being declared: an inline taskSpec sees the pipeline's params. */
  propagatedParams?: readonly string[];
  /** Workspaces visible without being declared: an inline taskSpec gets those of its pipeline (run). */
  propagatedWorkspaces?: readonly string[];
  /** Inside a pipeline `$(tasks.*)` and `$(context.pipelineRun.*)` are checked by the pipeline. */
  inPipeline?: boolean;
}

const TASK_CONTEXT = ['taskRun.name', 'taskRun.uid', 'taskRun.namespace', 'task.name', 'task.retry-count'];
const PIPELINE_CONTEXT = ['pipelineRun.name', 'pipelineRun.uid', 'pipelineRun.namespace', 'pipeline.name'];

/** Reports the second and later uses of a name in a list. */
export function duplicateNames(
  items: readonly { name?: string }[] | undefined,
  base: string,
  rule: string,
  what: string,
): DefinitionIssue[] {
  const first = new Map<string, number>();
  const issues: DefinitionIssue[] = [];
  (items ?? []).forEach((item, i) => {
    if (item.name === undefined) return;
    const seen = first.get(item.name);
    if (seen === undefined) first.set(item.name, i);
    else
      issues.push({
        path: `${base}[${i}].name`,
        rule,
        message: `duplicate ${what} name "${item.name}" (first at ${base}[${seen}])`,
      });
  });
  return issues;
}

/** A declared param's default must match its type. */
export function paramDefaultIssues(
  params: readonly ParamSpec[] | undefined,
  base: string,
): DefinitionIssue[] {
  return (params ?? []).flatMap((param, i) => {
    if (param.default === undefined) return [];
    const actual = paramValueType(param.default);
    if (actual === param.type) return [];
    const message = `param "${param.name}" is of type ${param.type} but its default is ${actual === 'array' ? 'an' : 'a'} ${actual}`;
    return [{ path: `${base}[${i}].default`, rule: 'param-type', message }];
  });
}

function referenceIssue(
  reference: Reference,
  path: string,
  spec: TaskSpec,
  options: TaskValidationOptions,
  /** The string is this reference and nothing else. */
  alone = false,
): DefinitionIssue | null {
  const issue = (rule: string, message: string) => ({ path, rule, message: `${reference.raw}: ${message}` });
  if (isStepReference(reference))
    return stepReferenceIssue(reference, path, spec, options.basePath ?? 'spec');
  switch (reference.kind) {
    case 'param': {
      const declared = spec.params?.find((p) => p.name === reference.name);
      if (!declared)
        return options.propagatedParams?.includes(reference.name)
          ? null
          : issue('unknown-param-reference', `the task declares no param "${reference.name}"`);
      const star = reference.selector?.kind === 'star';
      const element = /\.(args|command)\[\d+\]$/.test(path);
      if (declared.type === 'string' && reference.selector)
        return issue('param-usage', `param "${reference.name}" is a string`);
      // Tekton expands `$(params.a)` standing alone as an element of command or args, as `[*]`
      if (declared.type === 'array' && !reference.selector && alone && element) return null;
      if (declared.type === 'object' && reference.selector?.kind === 'key' && declared.properties)
        if (!Object.hasOwn(declared.properties, reference.selector.key))
          return issue(
            'param-usage',
            `object param "${reference.name}" has no key "${reference.selector.key}"`,
          );
      if (declared.type !== 'string' && !reference.selector)
        return issue(
          'param-usage',
          `param "${reference.name}" is an ${declared.type}: use $(params.${reference.name}[*])`,
        );
      if (star && declared.type === 'array' && !element)
        return issue('param-usage', 'an array can only be expanded as a whole element of command or args');
      return null;
    }
    case 'resultPath':
      return spec.results?.some((r) => r.name === reference.result)
        ? null
        : issue('unknown-result', `the task declares no result "${reference.result}"`);
    case 'workspace':
      return spec.workspaces?.some((w) => w.name === reference.workspace) ||
        options.propagatedWorkspaces?.includes(reference.workspace)
        ? null
        : issue('unknown-workspace', `the task declares no workspace "${reference.workspace}"`);
    case 'context': {
      const known = options.inPipeline ? [...TASK_CONTEXT, ...PIPELINE_CONTEXT] : TASK_CONTEXT;
      return known.includes(reference.variable) ? null : issue('unknown-context', `unknown context variable`);
    }
    case 'unsupported':
      return { path, rule: 'unsupported-reference', message: reference.message };
    default:
      return options.inPipeline
        ? null
        : issue('reference-scope', 'a Task on its own cannot read other tasks');
  }
}

/**
 * A step's or sidecar's container needs an image, and at most one of script and command; with
 * neither it runs its image's entrypoint (Kubernetes' rules, `args` replacing the image's cmd).
 */
function containerIssues(
  container: { image?: string; script?: string; command?: string[] },
  at: string,
  label: string,
): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  if (!container.image)
    issues.push({ path: `${at}.image`, rule: 'step-image', message: `${label} needs an image` });
  if (container.script !== undefined && container.command?.length)
    issues.push({
      path: `${at}.script`,
      rule: 'step-script-command',
      message: `${label} has both script and command: use one`,
    });
  return issues;
}

function stepIssues(spec: TaskSpec, base: string): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  if (spec.steps.length === 0)
    issues.push({ path: `${base}.steps`, rule: 'no-steps', message: 'a Task needs at least one step' });
  issues.push(...duplicateNames(spec.steps, `${base}.steps`, 'duplicate-step', 'step'));
  spec.steps.forEach((raw, i) => {
    const step = applyStepTemplate(raw, spec.stepTemplate);
    const at = `${base}.steps[${i}]`;
    const label = `step "${step.name ?? i}"`;
    issues.push(...stepLevelIssues(raw, at, label));
    if (!raw.ref) issues.push(...containerIssues(step, at, label));
  });
  issues.push(...duplicateNames(spec.sidecars, `${base}.sidecars`, 'duplicate-sidecar', 'sidecar'));
  (spec.sidecars ?? []).forEach((sidecar, i) => {
    const at = `${base}.sidecars[${i}]`;
    const label = `sidecar "${sidecar.name}"`;
    issues.push(...containerIssues(sidecar, at, label), ...stepLevelIssues(sidecar, at, label));
    if (spec.steps.some((s) => s.name === sidecar.name))
      issues.push({
        path: `${at}.name`,
        rule: 'duplicate-sidecar',
        message: `${label} has the name of a step`,
      });
  });
  issues.push(...duplicateNames(spec.volumes, `${base}.volumes`, 'duplicate-volume', 'volume'));
  return issues;
}

/** The issues of one Task spec, with paths under `options.basePath` (default `spec`). */
export function taskSpecIssues(spec: TaskSpec, options: TaskValidationOptions = {}): DefinitionIssue[] {
  const base = options.basePath ?? 'spec';
  const issues = [
    ...stepIssues(spec, base),
    ...duplicateNames(spec.params, `${base}.params`, 'duplicate-param', 'param'),
    ...duplicateNames(spec.results, `${base}.results`, 'duplicate-result', 'result'),
    ...duplicateNames(spec.workspaces, `${base}.workspaces`, 'duplicate-workspace', 'workspace'),
    ...paramDefaultIssues(spec.params, `${base}.params`),
    ...taskStepIssues(spec, base),
  ];
  const strings = [
    ...walkStrings(spec.steps, [`${base}.steps`]),
    ...walkStrings(spec.stepTemplate ?? {}, [`${base}.stepTemplate`]),
    ...walkStrings(spec.sidecars ?? [], [`${base}.sidecars`]),
  ];
  for (const { path, text } of strings)
    for (const reference of findReferences(text)) {
      const issue = referenceIssue(reference, path, spec, options, text === reference.raw);
      if (issue) issues.push(issue);
    }
  return issues;
}

/** Validates a Task: steps (image; script or command; unique names), declarations and `$(...)` use. */
export function validateTask(task: Task | TaskSpec, options: TaskValidationOptions = {}): ValidationResult {
  return toValidationResult(taskSpecIssues(specOf(task), options));
}
