import type { DefinitionIssue } from './definition-issue.js';
import { locateIssues, parseDefinition, type ParsedDefinition } from './parse-document.js';
import type { PipelineSpec, Task, TaskSpec } from './model.js';
import { stepActionIssues, type StepActionCatalogue } from './step-action.js';
import { inlineStepActions } from './step-action-inline.js';
import type { TaskCatalogue } from './task-catalogue.js';
import { validatePipeline } from './validate.js';
import { validateTask } from './validate-task.js';

/**
 * Parses and validates a definition in one go, as the API does before storing anything: each
 * Task on its own, then the Pipeline (and a PipelineRun's pipelineSpec) against the catalogue
 * plus the Tasks of the same text. Issues carry the index of the document they belong to.
 */
export function checkDefinition(
  text: string,
  catalogue: TaskCatalogue = {},
  options: CheckOptions = {},
): ParsedDefinition {
  const read = parseDefinition(text);
  if (!read.ok) return read;
  const errors: DefinitionIssue[] = [];
  const parsed = withStepActions(read, options.stepActions, errors);
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
    // an embedded pipelineSpec sees the PipelineRun's params and workspaces (Tekton propagates them)
    const propagated =
      doc.kind === 'PipelineRun'
        ? {
            params: (doc.spec.params ?? []).map((p) => p.name),
            workspaces: (doc.spec.workspaces ?? []).map((w) => w.name),
          }
        : undefined;
    const result = validatePipeline(spec, tasks, { basePath, ...(propagated ? { propagated } : {}) });
    if (!result.ok) errors.push(...result.errors.map((e) => ({ ...e, document })));
  });
  // a StepAction step whose params did not fit says so once, not again for each $(params.*) left
  const failed = errors
    .filter((e) => e.rule === 'step-action-param')
    .map((e) => ({ ...e, at: e.path.replace(/\.params$/, '.') }));
  const kept = errors.filter(
    (e) =>
      e.rule === 'step-action-param' ||
      !failed.some((f) => f.document === e.document && e.path.startsWith(f.at)),
  );
  return kept.length > 0 ? { ok: false, errors: locateIssues(text, kept) } : parsed;
}

export interface CheckOptions {
  /** StepActions the steps may reference by name (the workspace's); the text's own win. */
  stepActions?: StepActionCatalogue;
}

type Parsed = ParsedDefinition & { ok: true };

function inlinePipeline(
  spec: PipelineSpec,
  actions: StepActionCatalogue,
  base: string,
  issues: DefinitionIssue[],
) {
  const inline = (list: 'tasks' | 'finally') =>
    spec[list]?.map((task, i) => {
      if (!task.taskSpec) return task;
      const done = inlineStepActions(task.taskSpec, actions, `${base}.${list}[${i}].taskSpec`);
      issues.push(...done.issues);
      return done.spec === task.taskSpec ? task : { ...task, taskSpec: { ...task.taskSpec, ...done.spec } };
    });
  return { ...spec, tasks: inline('tasks') ?? [], ...(spec.finally ? { finally: inline('finally') } : {}) };
}

/**
 * Validates the text's StepActions and inlines StepActions (the text's, then the given ones)
 * into the steps of its Tasks and inline taskSpecs that reference them (step-action-inline.ts).
 */
function withStepActions(
  parsed: Parsed,
  given: StepActionCatalogue | undefined,
  errors: DefinitionIssue[],
): Parsed {
  const actions = new Map(given ?? []);
  parsed.documents.forEach((doc, document) => {
    if (doc.kind !== 'StepAction') return;
    actions.set(doc.metadata.name, doc);
    errors.push(...stepActionIssues(doc).map((e) => ({ ...e, document })));
  });
  const documents = parsed.documents.map((doc, document) => {
    const issues: DefinitionIssue[] = [];
    let out = doc;
    if (doc.kind === 'Task') {
      const done = inlineStepActions(doc.spec, actions, 'spec');
      issues.push(...done.issues);
      if (done.spec !== doc.spec) out = { ...doc, spec: done.spec };
    } else if (doc.kind === 'Pipeline')
      out = { ...doc, spec: inlinePipeline(doc.spec, actions, 'spec', issues) };
    else if (doc.kind === 'PipelineRun' && doc.spec.pipelineSpec)
      out = {
        ...doc,
        spec: {
          ...doc.spec,
          pipelineSpec: inlinePipeline(doc.spec.pipelineSpec, actions, 'spec.pipelineSpec', issues),
        },
      };
    errors.push(...issues.map((e) => ({ ...e, document })));
    return out;
  });
  return {
    ...parsed,
    documents,
    tasks: documents.filter((d): d is Task => d.kind === 'Task'),
    pipeline: documents.find((d) => d.kind === 'Pipeline') as Parsed['pipeline'],
    pipelineRun: documents.find((d) => d.kind === 'PipelineRun') as Parsed['pipelineRun'],
  };
}
