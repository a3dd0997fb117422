import {
  checkDefinition,
  parseDefinition,
  type DefinitionIssue,
  type PipelineSpec,
  type Task,
} from '../pipelines/definition/index.js';
import type { StepAction } from '../pipelines/definition/step-action.js';
import { inlineStepActions } from '../pipelines/definition/step-action-inline.js';

export interface RunDefinition {
  /** The pipeline's name in the text (metadata.name), if it had one. */
  name: string | undefined;
  spec: PipelineSpec;
  catalogue: Map<string, Task>;
}

export type LoadedDefinition =
  { ok: true; definition: RunDefinition } | { ok: false; errors: DefinitionIssue[] };

/**
 * The catalogue a run sees: task templates (built-ins first, the workspace's own over them), the
 * StepActions among them inlined into the steps that reference them (decision 035).
 */
export function templateCatalogue(
  templates: readonly { name: string; definition: string }[],
): Map<string, Task> {
  const catalogue = new Map<string, Task>();
  const stepActions = templateStepActions(templates);
  for (const template of templates) {
    const parsed = parseDefinition(template.definition);
    if (!parsed.ok) continue;
    const task = parsed.tasks[0];
    if (task) catalogue.set(template.name, { ...task, spec: inlineStepActions(task.spec, stepActions).spec });
  }
  return catalogue;
}

/** The StepActions among the task templates, by name. */
export function templateStepActions(
  templates: readonly { name: string; definition: string }[],
): Map<string, StepAction> {
  const found = new Map<string, StepAction>();
  for (const template of templates) {
    if (!template.definition.includes('StepAction')) continue;
    const parsed = parseDefinition(template.definition);
    const action = parsed.ok ? parsed.stepActions[0] : undefined;
    if (action) found.set(template.name, action);
  }
  return found;
}

/** Parses and validates a stored pipeline version against the catalogue plus the Tasks in its text. */
export function loadDefinition(
  text: string,
  templates: Map<string, Task>,
  stepActions?: ReadonlyMap<string, StepAction>,
): LoadedDefinition {
  const parsed = checkDefinition(text, templates, { stepActions });
  if (!parsed.ok) return parsed;
  const catalogue = new Map(templates);
  for (const task of parsed.tasks) catalogue.set(task.metadata.name, task);
  const spec = parsed.pipeline?.spec ?? parsed.pipelineRun?.spec.pipelineSpec;
  if (!spec)
    return {
      ok: false,
      errors: [{ path: '', rule: 'no-pipeline', message: 'the definition holds no Pipeline to run' }],
    };
  return { ok: true, definition: { name: parsed.pipeline?.metadata.name, spec, catalogue } };
}

export function describeIssues(errors: readonly DefinitionIssue[]): string {
  return errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
}
