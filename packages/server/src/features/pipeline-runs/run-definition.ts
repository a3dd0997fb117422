import {
  checkDefinition,
  parseDefinition,
  type DefinitionIssue,
  type PipelineSpec,
  type Task,
} from '../pipelines/definition/index.js';

export interface RunDefinition {
  /** The pipeline's name in the text (metadata.name), if it had one. */
  name: string | undefined;
  spec: PipelineSpec;
  catalogue: Map<string, Task>;
}

export type LoadedDefinition =
  { ok: true; definition: RunDefinition } | { ok: false; errors: DefinitionIssue[] };

/** The catalogue a run sees: task templates (built-ins first, the workspace's own over them). */
export function templateCatalogue(
  templates: readonly { name: string; definition: string }[],
): Map<string, Task> {
  const catalogue = new Map<string, Task>();
  for (const template of templates) {
    const parsed = parseDefinition(template.definition);
    if (!parsed.ok) continue;
    const task = parsed.tasks[0];
    if (task) catalogue.set(template.name, task);
  }
  return catalogue;
}

/** Parses and validates a stored pipeline version against the catalogue plus the Tasks in its text. */
export function loadDefinition(text: string, templates: Map<string, Task>): LoadedDefinition {
  const parsed = checkDefinition(text, templates);
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
