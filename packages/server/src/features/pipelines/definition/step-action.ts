import { toValidationResult, type DefinitionIssue, type ValidationResult } from './definition-issue.js';
import type { StepAction, StepActionSpec } from './model.js';
import { findReferences, walkStrings, wholeReference } from './references.js';
import { duplicateNames, paramDefaultIssues } from './validate-task.js';

/*
 * Tekton's StepAction (tekton.dev/v1beta1, and the older v1alpha1): a reusable step that a Task's
 * step runs by `ref: {name}` with `params`. Slipway keeps them with the task templates (decision
 * 035) or in the same text as the Task that uses them, and inlines them into the step before the
 * Task is validated and run (step-action-inline.ts).
 */

export {
  STEP_ACTION_API_VERSIONS,
  stepActionSpecSchema,
  stepActionSchema,
  type StepActionSpec,
  type StepAction,
  type StepActionCatalogue,
} from './model.js';

function referenceIssues(spec: StepActionSpec, base: string): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const { params, results, script, ...fields } = spec;
  for (const { path, text } of walkStrings(fields, [base])) {
    for (const reference of findReferences(text)) {
      const issue = (rule: string, message: string) =>
        issues.push({ path, rule, message: `${reference.raw}: ${message}` });
      if (reference.kind === 'param') {
        const declared = params?.find((p) => p.name === reference.name);
        if (!declared)
          issue('unknown-param-reference', `the StepAction declares no param "${reference.name}"`);
        else if (declared.type === 'string' && reference.selector)
          issue('param-usage', `param "${reference.name}" is a string`);
        else if (declared.type !== 'string' && !reference.selector)
          issue(
            'param-usage',
            `param "${reference.name}" is an ${declared.type}: use $(params.${reference.name}[*])`,
          );
      } else if (reference.kind === 'stepResultPath' && !results?.some((r) => r.name === reference.result))
        issue('unknown-result', `the StepAction declares no result "${reference.result}"`);
    }
  }
  if (script !== undefined)
    for (const reference of findReferences(script)) {
      if (reference.kind === 'param')
        issues.push({
          path: `${base}.script`,
          rule: 'step-action-script-param',
          message: `${reference.raw}: a StepAction's script cannot use params (Tekton refuses it: pass the param in env and read the variable)`,
        });
      else if (reference.kind === 'stepResultPath' && !results?.some((r) => r.name === reference.result))
        issues.push({
          path: `${base}.script`,
          rule: 'unknown-result',
          message: `${reference.raw}: the StepAction declares no result "${reference.result}"`,
        });
    }
  (spec.volumeMounts ?? []).forEach((mount, i) => {
    const whole = wholeReference(mount.name);
    const param =
      whole?.kind === 'param' && !whole.selector ? params?.find((p) => p.name === whole.name) : undefined;
    if (!param || param.type !== 'string')
      issues.push({
        path: `${base}.volumeMounts[${i}].name`,
        rule: 'step-action-volume',
        message: `volumeMount "${mount.mountPath}": a StepAction's volumeMount name must be exactly one string param, like $(params.config), so the Task picks the volume`,
      });
  });
  return issues;
}

/** Validates a StepAction: an image, script or command (not both), declarations and `$(params.*)` use. */
export function stepActionIssues(action: StepAction, base = 'spec'): DefinitionIssue[] {
  const { spec } = action;
  const issues: DefinitionIssue[] = [];
  if (!spec.image)
    issues.push({ path: `${base}.image`, rule: 'step-image', message: 'a StepAction needs an image' });
  if (spec.script !== undefined && spec.command?.length)
    issues.push({
      path: `${base}.script`,
      rule: 'step-script-command',
      message: 'a StepAction has both script and command: use one',
    });
  issues.push(
    ...duplicateNames(spec.params, `${base}.params`, 'duplicate-param', 'param'),
    ...duplicateNames(spec.results, `${base}.results`, 'duplicate-result', 'result'),
    ...paramDefaultIssues(spec.params, `${base}.params`),
    ...referenceIssues(spec, base),
  );
  return issues;
}

export function validateStepAction(action: StepAction): ValidationResult {
  return toValidationResult(stepActionIssues(action));
}
