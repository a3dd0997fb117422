import { stringify } from 'yaml';
import {
  checkDefinition,
  paramValueType,
  parseDuration,
  TEKTON_API_VERSION,
  type DefinitionIssue,
  type ParamValue,
  type Task,
} from '../pipelines/definition/index.js';
import { TASK_RUN_SPEC_FIELDS, taskRunDocumentSchema } from '../pipelines/definition/task-run-document.js';
import type { ReadRunDocument } from './run-document-types.js';
import {
  bindingsOf,
  COMPUTE_RESOURCES_WHY,
  isObject,
  paramsOf,
  readMetadata,
  refuseIfSet,
  resolverIssues,
  serviceAccountIssues,
  timeoutMs,
  unknownFields,
  withoutEchoes,
} from './run-document-rules.js';
import { podTemplateIssues } from './run-pod-templates.js';
import { blankDocument, schemaIssue, type StreamDocument } from './run-document-yaml.js';

type Json = Record<string, unknown>;

/** The pipeline task a TaskRun becomes: the run's params and workspaces passed straight through. */
function pipelineTaskOf(spec: Json, name: string, params: Record<string, ParamValue>, workspaces: string[]) {
  return {
    name,
    ...(spec.taskRef !== undefined ? { taskRef: { name: (spec.taskRef as Json).name } } : {}),
    ...(spec.taskSpec !== undefined ? { taskSpec: spec.taskSpec } : {}),
    ...(Object.keys(params).length > 0
      ? {
          params: Object.entries(params).map(([param, value]) => ({
            name: param,
            value:
              paramValueType(value) === 'string'
                ? `$(params.${param})`
                : paramValueType(value) === 'array'
                  ? [`$(params.${param}[*])`]
                  : `$(params.${param}[*])`,
          })),
        }
      : {}),
    ...(workspaces.length > 0 ? { workspaces: workspaces.map((w) => ({ name: w, workspace: w })) } : {}),
    // Tekton's "0" is no timeout: the task then has none of its own (the run's is the longest allowed)
    ...(spec.timeout !== undefined && parseDuration(String(spec.timeout))
      ? { timeout: String(spec.timeout) }
      : {}),
    ...(spec.retries !== undefined ? { retries: spec.retries } : {}),
  };
}

/** The pipeline task's name: the Task's (or the run's) as a DNS label, as pipeline task names are. */
function taskNameOf(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 63)
      .replace(/-+$/, '') || 'task'
  );
}

/**
 * A generated pipeline's issue as the TaskRun's: `spec.tasks[0].taskSpec.steps[1]` is the
 * TaskRun's `spec.taskSpec.steps[1]`; the pipeline's own params and workspaces are the run's.
 */
function asTaskRunPath(path: string): string {
  return path.replace(/^spec\.tasks\[0\]\.?/, 'spec.').replace(/\.$/, '');
}

/** Reads a TaskRun: a one-task run of its Task (inline, or a template or a Task of the stream). */
export function readTaskRun(input: {
  text: string;
  run: StreamDocument;
  others: StreamDocument[];
  catalogue: Map<string, Task>;
  place: (issue: DefinitionIssue) => DefinitionIssue;
}): ReadRunDocument {
  const { text, run, others, catalogue, place } = input;
  const raw = run.value as Json;
  if (raw.apiVersion !== TEKTON_API_VERSION)
    return {
      ok: false,
      errors: [
        place({
          path: 'apiVersion',
          rule: 'api-version',
          message: `apiVersion ${JSON.stringify(raw.apiVersion ?? null)} is not supported for a TaskRun: use ${TEKTON_API_VERSION}`,
        }),
      ],
    };
  const issues: DefinitionIssue[] = [];
  const metadata = readMetadata(raw.metadata, issues);
  const spec = isObject(raw.spec) ? raw.spec : {};
  issues.push(...unknownFields(spec, TASK_RUN_SPEC_FIELDS, 'spec', 'TaskRun'));
  const parsed = taskRunDocumentSchema.safeParse(raw);
  if (!parsed.success)
    issues.push(...parsed.error.issues.map((i) => schemaIssue({ ...i, path: i.path as PropertyKey[] })));
  issues.push(
    ...refuseIfSet(
      spec.status,
      'spec.status',
      'a run starts as soon as it is created (abort it with POST /api/pipelineruns/:id/abort)',
    ),
    ...refuseIfSet(
      spec.statusMessage,
      'spec.statusMessage',
      'a run is cancelled with POST /api/pipelineruns/:id/abort',
    ),
    ...refuseIfSet(spec.debug, 'spec.debug', 'breakpoints are not supported'),
    ...podTemplateIssues(spec.podTemplate, 'spec.podTemplate'),
    ...refuseIfSet(spec.computeResources, 'spec.computeResources', COMPUTE_RESOURCES_WHY),
    ...refuseIfSet(
      spec.stepSpecs,
      'spec.stepSpecs',
      "overriding a step's compute resources is not supported",
    ),
    ...refuseIfSet(
      spec.sidecarSpecs,
      'spec.sidecarSpecs',
      "overriding a sidecar's compute resources is not supported",
    ),
    ...serviceAccountIssues(spec.serviceAccountName, 'spec.serviceAccountName'),
  );
  if (spec.managedBy !== undefined && spec.managedBy !== 'tekton.dev/pipeline')
    issues.push({
      path: 'spec.managedBy',
      rule: 'unsupported',
      message: 'spec.managedBy is not supported: Slipway runs the TaskRun itself',
    });
  const hasRef = spec.taskRef !== undefined;
  if (hasRef === (spec.taskSpec !== undefined))
    issues.push({
      path: 'spec',
      rule: 'task',
      message: 'give exactly one of spec.taskRef and spec.taskSpec',
    });
  const streamDocuments = others.map((d) => d.value as Json);
  if (hasRef && isObject(spec.taskRef)) {
    issues.push(...resolverIssues(spec.taskRef, 'spec.taskRef'));
    const kind = spec.taskRef.kind;
    // Tekton reads a namespaced Task for any kind but ClusterTask (its examples write `kind: task`)
    if (kind !== undefined && (typeof kind !== 'string' || kind.toLowerCase() !== 'task'))
      issues.push({
        path: 'spec.taskRef.kind',
        rule: 'unsupported',
        message: `a taskRef of kind ${JSON.stringify(kind)} is not supported: reference a Task`,
      });
    const name = spec.taskRef.name;
    const inStream = streamDocuments.some(
      (t) => t.kind === 'Task' && (t.metadata as Json | undefined)?.name === name,
    );
    if (typeof name === 'string' && name && !inStream && !catalogue.has(name))
      issues.push({
        path: 'spec.taskRef.name',
        rule: 'unknown-task',
        message: `no Task "${name}" in the stream and no task template of that name in the workspace`,
      });
  }
  const runTimeout = timeoutMs(spec.timeout, 'spec.timeout', issues);
  const params = paramsOf(parsed.success ? parsed.data.spec.params : undefined, 'spec.params', issues);
  const workspaces = bindingsOf(spec.workspaces, 'spec.workspaces', issues);
  if (others.length > 0) {
    // the stream's Tasks, where they are in the text (the TaskRun blanked out, lines kept)
    const checked = checkDefinition(blankDocument(text, run), catalogue);
    if (!checked.ok) issues.push(...checked.errors);
  }
  if (issues.length > 0) return { ok: false, errors: withoutEchoes(issues).map(place) };
  const taskName = taskNameOf(
    (hasRef ? String((spec.taskRef as Json).name) : undefined) ??
      metadata.name ??
      metadata.generateName ??
      '',
  );
  const pipelineSpec: Json = {
    ...(Object.keys(params).length > 0
      ? { params: Object.entries(params).map(([name, value]) => ({ name, type: paramValueType(value) })) }
      : {}),
    ...(workspaces.length > 0 ? { workspaces: workspaces.map((w) => ({ name: w.name })) } : {}),
    tasks: [
      pipelineTaskOf(
        spec,
        taskName,
        params,
        workspaces.map((w) => w.name),
      ),
    ],
  };
  // the generated pipeline checked as the engine will load it; its issues are the TaskRun's
  const generated = [
    ...streamDocuments,
    { apiVersion: TEKTON_API_VERSION, kind: 'Pipeline', metadata: { name: taskName }, spec: pipelineSpec },
  ]
    .map((doc) => stringify(doc, { lineWidth: 0 }))
    .join('---\n');
  const check = checkDefinition(generated, catalogue);
  if (!check.ok)
    return {
      ok: false,
      errors: check.errors
        .filter((e) => e.document === streamDocuments.length)
        .map(({ line: _line, column: _column, document: _document, ...e }) =>
          place({ ...e, path: asTaskRunPath(e.path) }),
        ),
    };
  return {
    ok: true,
    document: {
      kind: 'TaskRun',
      metadata,
      adhoc: { name: undefined, documents: streamDocuments, spec: pipelineSpec },
      params,
      workspaces,
      timeoutMs: runTimeout,
      taskRunSpecs: [],
      record: {
        kind: 'TaskRun',
        ...(Object.keys(metadata.labels).length ? { labels: metadata.labels } : {}),
        ...(Object.keys(metadata.annotations).length ? { annotations: metadata.annotations } : {}),
        ...(spec.timeout !== undefined ? { timeouts: { pipeline: String(spec.timeout) } } : {}),
        ...(typeof spec.serviceAccountName === 'string'
          ? { serviceAccountName: spec.serviceAccountName }
          : {}),
        ...(isObject(spec.podTemplate) ? { podTemplate: spec.podTemplate } : {}),
      },
      place,
    },
  };
}
