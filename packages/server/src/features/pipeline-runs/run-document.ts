import { stringify } from 'yaml';
import {
  checkDefinition,
  normaliseV1beta1,
  TEKTON_API_VERSION,
  TEKTON_KINDS,
  TEKTON_V1BETA1,
  type DefinitionIssue,
  type Task,
} from '../pipelines/definition/index.js';
import { readTaskRun } from './run-document-task-run.js';
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
import { readTimeouts, taskRunSpecTimeoutIssues } from './run-document-timeouts.js';
import { podTemplateIssues } from './run-pod-templates.js';
import { placeIssue, readStream, type StreamDocument } from './run-document-yaml.js';

/*
 * A Tekton PipelineRun or TaskRun document, read the way `kubectl create -f` would take it, into
 * what a Slipway run is made of. A YAML stream may carry, beside the one run, the Tasks (and for a
 * PipelineRun the Pipeline) it uses; a pipeline given in the document (pipelineSpec, the stream's
 * Pipeline, a TaskRun's Task) is recorded with the run as an ad-hoc pipeline (decision 036).
 */

import type { Json, ReadRunDocument, RunDocument, RunKind } from './run-document-types.js';
export type { ReadRunDocument, RunDocument, RunDocumentRecord, RunKind } from './run-document-types.js';

const PIPELINE_RUN_SPEC = [
  'pipelineRef',
  'pipelineSpec',
  'params',
  'workspaces',
  'timeouts',
  'taskRunTemplate',
  'taskRunSpecs',
  'status',
  'managedBy',
];
const TASK_RUN_SPEC_KEYS = [
  'pipelineTaskName',
  'serviceAccountName',
  'podTemplate',
  'computeResources',
  'stepSpecs',
  'sidecarSpecs',
  'metadata',
  'timeout',
];

/** Why a document of the stream is not taken: what may be there, and where the others belong. */
function strayMessage(kind: RunKind, allowed: readonly string[], stray: unknown): string {
  const where: Record<string, string> = {
    ConfigMap: 'create config maps in Slipway (Config maps) and bind them by name',
    Secret: 'create secrets in Slipway (Secrets) and bind them by name',
    PersistentVolumeClaim:
      "bind a workspace to a volumeClaimTemplate, or to a claim that exists on the environment's cluster",
    ServiceAccount:
      "create it in the environment's namespace and name it in taskRunTemplate.serviceAccountName (or a taskRunSpec's serviceAccountName)",
  };
  const why = typeof stray === 'string' && where[stray] ? `: ${where[stray]}` : '';
  return `beside a ${kind} a stream may hold only ${allowed.join(', ')} documents, not ${JSON.stringify(stray ?? null)}${why}`;
}

/** The ad-hoc pipeline as the text stored for it: its Tasks, then the Pipeline named `name`. */
export function adhocDefinition(adhoc: NonNullable<RunDocument['adhoc']>, name: string): string {
  const pipeline = adhoc.embedded
    ? {
        apiVersion: TEKTON_API_VERSION,
        kind: 'PipelineRun',
        metadata: { name },
        spec: { ...adhoc.embedded, pipelineSpec: adhoc.spec },
      }
    : { apiVersion: TEKTON_API_VERSION, kind: 'Pipeline', metadata: { name }, spec: adhoc.spec };
  return [...adhoc.documents, pipeline].map((doc) => stringify(doc, { lineWidth: 0 })).join('---\n');
}

/** The body as text: a YAML or JSON string as given; an object (a JSON body) written out as JSON. */
export function documentText(input: string | object): string {
  return typeof input === 'string' ? input : JSON.stringify(input, null, 2);
}

/** Reads a run document; `catalogue` is the workspace's task templates (with the built-ins). */
export function readRunDocument(input: string | object, catalogue: Map<string, Task>): ReadRunDocument {
  const text = documentText(input);
  const stream = readStream(text);
  if (!stream.ok) return stream;
  const { documents, lines } = stream;
  const place = (doc: StreamDocument) => (issue: DefinitionIssue) =>
    issue.line !== undefined ? issue : placeIssue(issue, doc, lines);
  const runs = documents.filter(
    (d) => isObject(d.value) && ['PipelineRun', 'TaskRun'].includes(String(d.value.kind)),
  );
  if (runs.length !== 1)
    return {
      ok: false,
      errors: [
        runs.length === 0
          ? (documents[0] ? place(documents[0]) : (issue: DefinitionIssue) => issue)({
              path: 'kind',
              rule: 'no-run',
              message: 'the document must be a Tekton PipelineRun or TaskRun (kind: PipelineRun or TaskRun)',
            })
          : place(runs[1]!)({
              path: 'kind',
              rule: 'one-run',
              message: `a request creates one run: the stream holds ${runs.length} PipelineRuns and TaskRuns`,
            }),
      ],
    };
  const run = runs[0]!;
  const kind = (run.value as Json).kind as RunKind;
  const others = documents.filter((d) => d !== run);
  // the definition kinds Slipway reads (Task, Pipeline, StepAction, ...); a TaskRun has no Pipeline
  const allowed: string[] = TEKTON_KINDS.filter(
    (k) => k !== 'PipelineRun' && (kind === 'PipelineRun' || k !== 'Pipeline'),
  );
  const strays = others
    .filter((d) => !isObject(d.value) || !allowed.includes(String(d.value.kind)))
    .map((d) =>
      place(d)({
        path: 'kind',
        rule: 'kind',
        message: strayMessage(kind, allowed, isObject(d.value) ? d.value.kind : undefined),
      }),
    );
  if (strays.length > 0) return { ok: false, errors: strays };
  if (kind === 'TaskRun') return readTaskRun({ text, run, others, catalogue, place: place(run) });
  return readPipelineRun(text, run, others, catalogue, place(run));
}

function readPipelineRun(
  text: string,
  run: StreamDocument,
  others: StreamDocument[],
  catalogue: Map<string, Task>,
  place: (issue: DefinitionIssue) => DefinitionIssue,
): ReadRunDocument {
  let raw = run.value as Json;
  const issues: DefinitionIssue[] = [];
  if (raw.apiVersion === TEKTON_V1BETA1) {
    const normalised = normaliseV1beta1('PipelineRun', raw);
    // its refusals (PipelineResources, bundles) come from the definition check below
    raw = normalised.document;
  } else if (raw.apiVersion !== TEKTON_API_VERSION)
    return {
      ok: false,
      errors: [
        place({
          path: 'apiVersion',
          rule: 'api-version',
          message: `apiVersion ${JSON.stringify(raw.apiVersion ?? null)} is not supported: use ${TEKTON_API_VERSION} (or ${TEKTON_V1BETA1})`,
        }),
      ],
    };
  const metadata = readMetadata(raw.metadata, issues);
  const spec = isObject(raw.spec) ? raw.spec : {};
  issues.push(...unknownFields(spec, PIPELINE_RUN_SPEC, 'spec', 'PipelineRun'));
  issues.push(
    ...refuseIfSet(
      spec.status,
      'spec.status',
      'a run starts as soon as it is created (abort it with POST /api/pipelineruns/:id/abort)',
    ),
  );
  if (spec.managedBy !== undefined && spec.managedBy !== 'tekton.dev/pipeline')
    issues.push({
      path: 'spec.managedBy',
      rule: 'unsupported',
      message: 'spec.managedBy is not supported: Slipway runs the PipelineRun itself',
    });
  const hasRef = spec.pipelineRef !== undefined;
  if (hasRef === (spec.pipelineSpec !== undefined))
    issues.push({
      path: 'spec',
      rule: 'pipeline',
      message: 'give exactly one of spec.pipelineRef and spec.pipelineSpec',
    });
  if (hasRef && isObject(spec.pipelineRef))
    issues.push(...resolverIssues(spec.pipelineRef, 'spec.pipelineRef'));
  const timeouts = readTimeouts(spec.timeouts, issues);
  const template = isObject(spec.taskRunTemplate) ? spec.taskRunTemplate : {};
  issues.push(
    ...unknownFields(template, ['serviceAccountName', 'podTemplate'], 'spec.taskRunTemplate', 'PipelineRun'),
  );
  issues.push(
    ...serviceAccountIssues(template.serviceAccountName, 'spec.taskRunTemplate.serviceAccountName'),
  );
  // honoured where a cluster runs the tasks, refused on Slipway's own executor (run-pod-templates.ts)
  issues.push(...podTemplateIssues(template.podTemplate, 'spec.taskRunTemplate.podTemplate'));
  const specs = Array.isArray(spec.taskRunSpecs) ? spec.taskRunSpecs : [];
  const overrides = new Map<string, number>();
  const taskRunSpecs: RunDocument['taskRunSpecs'] = [];
  specs.forEach((entry, i) => {
    const at = `spec.taskRunSpecs[${i}]`;
    if (!isObject(entry))
      return issues.push({ path: at, rule: 'schema', message: 'a taskRunSpec is an object' });
    issues.push(...unknownFields(entry, TASK_RUN_SPEC_KEYS, at, 'PipelineRun taskRunSpec'));
    const name = entry.pipelineTaskName;
    if (typeof name !== 'string' || !name)
      return issues.push({
        path: `${at}.pipelineTaskName`,
        rule: 'schema',
        message: 'pipelineTaskName is required',
      });
    if (taskRunSpecs.some((s) => s.pipelineTaskName === name))
      issues.push({
        path: `${at}.pipelineTaskName`,
        rule: 'duplicate-task-run-spec',
        message: `pipeline task "${name}" has two taskRunSpecs`,
      });
    taskRunSpecs.push({ pipelineTaskName: name, path: `${at}.pipelineTaskName` });
    issues.push(...serviceAccountIssues(entry.serviceAccountName, `${at}.serviceAccountName`));
    issues.push(...podTemplateIssues(entry.podTemplate, `${at}.podTemplate`));
    issues.push(...refuseIfSet(entry.computeResources, `${at}.computeResources`, COMPUTE_RESOURCES_WHY));
    for (const key of ['stepSpecs', 'sidecarSpecs'])
      issues.push(
        ...refuseIfSet(
          entry[key],
          `${at}.${key}`,
          "overriding a step's or sidecar's compute resources is not supported",
        ),
      );
    issues.push(
      ...refuseIfSet(entry.metadata, `${at}.metadata`, 'labels and annotations on task pods are not applied'),
    );
    const ms = timeoutMs(entry.timeout, `${at}.timeout`, issues);
    if (ms !== undefined)
      issues.push(...taskRunSpecTimeoutIssues(entry.timeout, timeouts.written, `${at}.timeout`));
    if (ms !== undefined) overrides.set(name, ms);
  });
  // the PipelineRun's shape, the stream's Tasks and Pipeline and an inline pipelineSpec, checked
  // as a definition is (line and column, v1beta1 read as v1)
  const checked = checkDefinition(text, catalogue);
  if (!checked.ok) issues.push(...checked.errors);
  const params = paramsOf(checked.ok ? checked.pipelineRun?.spec.params : undefined, 'spec.params', issues);
  const workspaces = bindingsOf(spec.workspaces, 'spec.workspaces', issues);
  const refName =
    isObject(spec.pipelineRef) && typeof spec.pipelineRef.name === 'string'
      ? spec.pipelineRef.name
      : undefined;
  const streamPipeline = others.find((d) => (d.value as Json).kind === 'Pipeline');
  const streamPipelineName = streamPipeline
    ? String(((streamPipeline.value as Json).metadata as Json | undefined)?.name ?? '')
    : undefined;
  const documents = others.filter((d) => (d.value as Json).kind !== 'Pipeline').map((d) => d.value as Json);
  let adhoc: RunDocument['adhoc'];
  if (streamPipeline && refName !== streamPipelineName)
    issues.push({
      path: refName ? 'spec.pipelineRef.name' : 'spec.pipelineSpec',
      rule: 'unused-pipeline',
      message: `the stream's Pipeline "${streamPipelineName}" is not the one this PipelineRun runs: reference it with spec.pipelineRef.name`,
    });
  else if (streamPipeline)
    adhoc = { name: streamPipelineName, documents, spec: (streamPipeline.value as Json).spec as Json };
  else if (isObject(spec.pipelineSpec))
    adhoc = {
      name: undefined,
      documents,
      spec: spec.pipelineSpec,
      embedded: {
        ...(spec.params !== undefined ? { params: spec.params } : {}),
        ...(spec.workspaces !== undefined ? { workspaces: spec.workspaces } : {}),
      },
    };
  else if (documents.length > 0)
    issues.push({
      path: 'spec.pipelineRef.name',
      rule: 'unused-task',
      message: `the stream's Tasks and StepActions are used only by a pipeline given in the same stream; pipeline "${refName}" is a stored one, whose tasks come from the workspace's task templates`,
    });
  if (adhoc) {
    const given = adhoc.spec;
    const names = new Set(
      ['tasks', 'finally'].flatMap((list) =>
        (Array.isArray(given[list]) ? (given[list] as Json[]) : []).map((t) => String(t.name)),
      ),
    );
    for (const s of taskRunSpecs)
      if (!names.has(s.pipelineTaskName))
        issues.push({
          path: s.path,
          rule: 'unknown-pipeline-task',
          message: `the pipeline has no task "${s.pipelineTaskName}"`,
        });
    adhoc = { ...adhoc, spec: withTaskTimeouts(adhoc.spec, overrides) };
  } else
    for (const [name] of overrides)
      issues.push({
        path: `spec.taskRunSpecs[${specs.findIndex((s) => isObject(s) && s.pipelineTaskName === name)}].timeout`,
        rule: 'unsupported',
        message: `a taskRunSpec's timeout is honoured for a pipeline given in the document; pipeline "${refName}" is stored: set the timeout of its task "${name}" there`,
      });
  if (issues.length > 0) return { ok: false, errors: withoutEchoes(issues).map(place) };
  return {
    ok: true,
    document: {
      kind: 'PipelineRun',
      metadata,
      ...(adhoc ? { adhoc } : { pipelineRef: refName! }),
      params,
      workspaces,
      timeoutMs: timeouts.runMs,
      taskRunSpecs,
      record: {
        kind: 'PipelineRun',
        ...(Object.keys(metadata.labels).length ? { labels: metadata.labels } : {}),
        ...(Object.keys(metadata.annotations).length ? { annotations: metadata.annotations } : {}),
        ...(Object.keys(timeouts.written).length > 0 ? { timeouts: timeouts.written } : {}),
        ...(typeof template.serviceAccountName === 'string'
          ? { serviceAccountName: template.serviceAccountName }
          : {}),
        ...(isObject(template.podTemplate) ? { podTemplate: template.podTemplate } : {}),
        ...(specs.length > 0 ? { taskRunSpecs: specs as Json[] } : {}),
      },
      place,
    },
  };
}

/** The pipeline's spec with each overridden task's timeout (taskRunSpecs[].timeout) in place. */
function withTaskTimeouts(spec: Json, overrides: Map<string, number>): Json {
  if (overrides.size === 0) return spec;
  const copy = structuredClone(spec);
  for (const list of ['tasks', 'finally'])
    for (const task of Array.isArray(copy[list]) ? (copy[list] as Json[]) : [])
      if (overrides.has(String(task.name))) task.timeout = `${overrides.get(String(task.name))}ms`;
  return copy;
}
