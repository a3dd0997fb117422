import type { DefinitionIssue } from './definition-issue.js';
import { locateIssues, parseDefinition, type ParsedDefinition } from './parse-document.js';
import type { Task, TaskSpec } from './model.js';
import type { TaskCatalogue } from './task-catalogue.js';
import { validatePipeline } from './validate.js';
import { validateTask } from './validate-task.js';

/**
 * Parses and validates a definition in one go, as the API does before storing anything: each
 * Task on its own, then the Pipeline (and a PipelineRun's pipelineSpec) against the catalogue
 * plus the Tasks of the same text. Issues carry the index of the document they belong to.
 */
export function checkDefinition(text: string, catalogue: TaskCatalogue = {}): ParsedDefinition {
  const parsed = parseDefinition(text);
  if (!parsed.ok) return parsed;
  const errors: DefinitionIssue[] = [];
  const tasks = new Map<string, Task | TaskSpec>(
    catalogue instanceof Map
      ? [...catalogue.entries()]
      : Object.entries(catalogue).filter((e): e is [string, Task | TaskSpec] => e[1] !== undefined),
  );
  parsed.documents.forEach((doc, document) => {
    if (doc.kind === 'Task') {
      tasks.set(doc.metadata.name, doc);
      const result = validateTask(doc);
      if (!result.ok) errors.push(...result.errors.map((e) => ({ ...e, document })));
    }
  });
  parsed.documents.forEach((doc, document) => {
    const spec =
      doc.kind === 'Pipeline' ? doc.spec : doc.kind === 'PipelineRun' ? doc.spec.pipelineSpec : undefined;
    if (!spec) return;
    const basePath = doc.kind === 'Pipeline' ? 'spec' : 'spec.pipelineSpec';
    const result = validatePipeline(spec, tasks, { basePath });
    if (!result.ok) errors.push(...result.errors.map((e) => ({ ...e, document })));
  });
  return errors.length > 0 ? { ok: false, errors: locateIssues(text, errors) } : parsed;
}
