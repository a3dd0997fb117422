import type { DefinitionIssue } from './definition-issue.js';
import type { Step, TaskSpec } from './model.js';
import { wholeReference, type Reference } from './references.js';
import { fieldRefIssue, resourceFieldRefIssue } from './step-env-values.js';
import { stepActionConflicts } from './step-action-inline.js';

/*
 * The step-level rules of a Task: StepAction refs left after inlining, step results
 * (`$(step.results.r.path)`, `$(steps.<s>.results.r)`), `$(steps.step-<s>.exitCode.path)`,
 * `$(credentials.path)`, env `valueFrom`, and task results taken from step results.
 */

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The step name Tekton gives a step's container dir: `step-<name>`, or `step-unnamed-<i>`. */
export function stepDirName(step: Pick<Step, 'name'>, index: number): string {
  return `step-${step.name ?? `unnamed-${index}`}`;
}

type StepReference = Extract<
  Reference,
  { kind: 'stepResultPath' | 'stepResult' | 'stepExitCodePath' | 'credentialsPath' }
>;

export function isStepReference(reference: Reference): reference is StepReference {
  return ['stepResultPath', 'stepResult', 'stepExitCodePath', 'credentialsPath'].includes(reference.kind);
}

/** The issue of one step-level reference at `path` (null when it is fine). */
export function stepReferenceIssue(
  reference: StepReference,
  path: string,
  spec: TaskSpec,
  base: string,
): DefinitionIssue | null {
  const issue = (rule: string, message: string) => ({ path, rule, message: `${reference.raw}: ${message}` });
  if (reference.kind === 'credentialsPath') return null;
  const at = new RegExp(`^${escape(base)}\\.steps\\[(\\d+)\\]\\.(\\w+)`).exec(path);
  if (!at) return issue('step-reference-scope', "can only be used in a task's steps");
  const index = Number(at[1]);
  const field = at[2]!;
  const step = spec.steps[index]!;
  switch (reference.kind) {
    case 'stepResultPath':
      return step.results?.some((r) => r.name === reference.result)
        ? null
        : issue(
            'unknown-step-result',
            `step "${step.name ?? index}" declares no result "${reference.result}" (its results)`,
          );
    case 'stepExitCodePath': {
      const target = spec.steps.findIndex((s, i) => stepDirName(s, i) === reference.step);
      if (target < 0)
        return issue(
          'unknown-step',
          `no step's exit code is at this name: write $(steps.step-<step name>.exitCode.path)`,
        );
      return target < index
        ? null
        : issue('step-order', `step "${reference.step.slice(5)}" does not run before this step`);
    }
    case 'stepResult': {
      if (!['env', 'command', 'args', 'params'].includes(field))
        return issue(
          'step-result-usage',
          'step results can only be used in env, command and args (as Tekton has it)',
        );
      const target = spec.steps.findIndex((s) => s.name === reference.step);
      if (target < 0) return issue('unknown-step', `the task has no step "${reference.step}"`);
      if (target >= index)
        return issue('step-order', `step "${reference.step}" does not run before this step`);
      // a ref step left un-inlined is refused on its own: what it declares is unknown here
      if (!spec.steps[target]!.ref && !spec.steps[target]!.results?.some((r) => r.name === reference.result))
        return issue(
          'unknown-step-result',
          `step "${reference.step}" declares no result "${reference.result}"`,
        );
      return null;
    }
  }
}

/** A step with `ref` that inlining left: a remote one, one that also sets what it owns, or an unknown name. */
function refIssues(step: Step, at: string, label: string): DefinitionIssue[] {
  const conflicts = stepActionConflicts(step);
  if (conflicts.length > 0)
    return conflicts.map((field) => ({
      path: `${at}.${field}`,
      rule: 'step-action-ref',
      message: `${label}: ${field} cannot be used with ref (the StepAction gives it)`,
    }));
  if (step.ref?.resolver !== undefined)
    return [
      {
        path: `${at}.ref.resolver`,
        rule: 'unsupported',
        message: `${label}: remote StepActions (ref.resolver "${step.ref.resolver}") are not supported: store the StepAction with the task templates and reference it by name`,
      },
    ];
  if (!step.ref?.name)
    return [
      {
        path: `${at}.ref.name`,
        rule: 'step-action-ref',
        message: `${label}: ref needs the StepAction's name`,
      },
    ];
  return [
    {
      path: `${at}.ref.name`,
      rule: 'unknown-step-action',
      message: `${label}: no StepAction "${step.ref.name}" (store it with the task templates, or put it in the same text)`,
    },
  ];
}

/** What a step (or sidecar) asks of its env `valueFrom`, its StepAction ref and its params. */
export function stepLevelIssues(step: Step, at: string, label: string): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  if (step.ref) issues.push(...refIssues(step, at, label));
  else if (step.params)
    issues.push({
      path: `${at}.params`,
      rule: 'step-params',
      message: `${label}: params can only be given to a step that references a StepAction (an inline step reads the Task's params)`,
    });
  for (const field of ['when', 'stdoutConfig', 'stderrConfig'] as const)
    if (step[field] !== undefined)
      issues.push({
        path: `${at}.${field}`,
        rule: 'unsupported',
        message: `${label}: ${field} is not supported on a step (${field === 'when' ? "use the pipeline task's when" : "redirect the step's output in its script"})`,
      });
  // the container's name in Tekton's pod, which a resourceFieldRef's containerName must be
  const container =
    step.name === undefined
      ? undefined
      : label.startsWith('sidecar')
        ? `sidecar-${step.name}`
        : stepDirName(step, 0);
  (step.env ?? []).forEach((env, j) => {
    const from = env.valueFrom;
    const problem = from?.fieldRef
      ? fieldRefIssue(from.fieldRef.fieldPath)
      : from?.resourceFieldRef
        ? resourceFieldRefIssue(from.resourceFieldRef, container)
        : null;
    if (problem)
      issues.push({
        path: `${at}.env[${j}].valueFrom`,
        rule: 'unsupported',
        message: `env "${env.name}": ${problem}`,
      });
  });
  return issues;
}

/**
 * What the Task's steps ask of the Task as a whole: a task result's `value` must be exactly
 * `$(steps.<s>.results.<r>)` of a step declaring r, and a volumeMount a StepAction brought must
 * name a volume of the Task (the schema checks the Task's own steps' mounts).
 */
export function taskStepIssues(spec: TaskSpec, base: string): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const volumes = new Set((spec.volumes ?? []).map((v) => v.name));
  spec.steps.forEach((step, i) =>
    (step.volumeMounts ?? []).forEach((mount, j) => {
      if (!volumes.has(mount.name) && !/\$\(/.test(mount.name))
        issues.push({
          path: `${base}.steps[${i}].volumeMounts[${j}].name`,
          rule: 'unknown-volume',
          message: `volumeMount "${mount.mountPath}" names volume "${mount.name}", which the task does not declare (spec.volumes)`,
        });
    }),
  );
  (spec.results ?? []).forEach((result, i) => {
    if (result.value === undefined) return;
    const path = `${base}.results[${i}].value`;
    const whole = typeof result.value === 'string' ? wholeReference(result.value) : null;
    if (whole?.kind !== 'stepResult' || whole.selector) {
      issues.push({
        path,
        rule: 'task-result-value',
        message: `result "${result.name}": value must be exactly $(steps.<step>.results.<result>)`,
      });
      return;
    }
    const step = spec.steps.find((s) => s.name === whole.step);
    if (!step)
      issues.push({
        path,
        rule: 'unknown-step',
        message: `${whole.raw}: the task has no step "${whole.step}"`,
      });
    else if (!step.ref && !step.results?.some((r) => r.name === whole.result))
      issues.push({
        path,
        rule: 'unknown-step-result',
        message: `${whole.raw}: step "${whole.step}" declares no result "${whole.result}"`,
      });
  });
  return issues;
}
