import {
  PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS,
  type PipelineRunView,
  type RunTrigger,
} from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { definitionError } from '../pipeline-catalogue/definition-text.js';
import {
  resolvePipelineParams,
  type DefinitionIssue,
  type PipelineSpec,
} from '../pipelines/definition/index.js';
import { describeIssues, loadDefinition, templateCatalogue } from './run-definition.js';
import { adhocDefinition, readRunDocument, type RunDocument } from './run-document.js';
import { runNameOf } from './run-document-rules.js';
import { ADHOC_PIPELINE_KIND, type RunDocumentStore } from './run-document-store.js';
import { exportPipelineRun } from './run-export.js';
import { serverPodTemplateIssues } from './run-pod-templates.js';
import { serverServiceAccountIssues } from './run-service-accounts.js';
import type { DefinitionSource } from './run-sources.js';
import type { NewRun, RunRow, RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';
import { localBindingIssues } from './workspace-bindings.js';

export interface DocumentRunOptions {
  /** The environment the run targets (`?environmentId=`); else the one metadata.namespace names. */
  environmentId?: string | undefined;
  /** who records the ad-hoc pipeline */
  createdBy?: string | null;
}

export interface DocumentRunDeps {
  runs: RunStore;
  tasks: TaskStore;
  documents: RunDocumentStore;
  prepare: ((workspaceId: string, pipelineId: string) => Promise<string | undefined>) | undefined;
  /** the stored pipeline version's spec */
  spec: (pipelineId: string, version: number) => Promise<PipelineSpec>;
  start: (run: NewRun) => Promise<PipelineRunView>;
}

const HOUR_MS = 3_600_000;

/** The environment a document's run targets: the one given, or the one its namespace names. */
async function environmentOf(
  deps: DocumentRunDeps,
  workspaceId: string,
  doc: RunDocument,
  given: string | undefined,
  fail: (issue: DefinitionIssue) => Error,
): Promise<string | undefined> {
  const namespace = doc.metadata.namespace;
  if (given) {
    const ns = await deps.documents.environmentNamespace(workspaceId, given);
    if (ns === undefined)
      throw new InputError('environmentId: no such environment in this workspace', [
        { path: 'environmentId', message: 'no such environment in this workspace' },
      ]);
    if (namespace && namespace !== ns)
      throw fail({
        path: 'metadata.namespace',
        rule: 'namespace',
        message: `the run goes to its environment's namespace ${JSON.stringify(ns)}, not "${namespace}"`,
      });
    return given;
  }
  if (!namespace) return undefined;
  const found = await deps.documents.environmentsInNamespace(workspaceId, namespace);
  if (found.length === 1) return found[0]!.id;
  throw fail({
    path: 'metadata.namespace',
    rule: 'namespace',
    message:
      found.length === 0
        ? `no environment of this workspace has namespace "${namespace}": remove metadata.namespace, or choose an environment with ?environmentId=`
        : `${found.length} environments of this workspace have namespace "${namespace}": choose one with ?environmentId=`,
  });
}

/** A param issue (`params.<name>`) at the document's `spec.params[i]`. */
function paramIssue(doc: RunDocument, issue: DefinitionIssue): DefinitionIssue {
  const name = issue.path.replace(/^params\./, '');
  const index = Object.keys(doc.params).indexOf(name);
  return { ...issue, path: index >= 0 ? `spec.params[${index}]` : 'spec.params' };
}

/** Reads, checks and starts a run document (see PipelineRunsService.createFromDocument). */
export async function createFromDocument(
  deps: DocumentRunDeps,
  workspaceId: string,
  body: string | object,
  options: DocumentRunOptions,
  trigger: RunTrigger,
): Promise<PipelineRunView> {
  const catalogue = templateCatalogue(await deps.tasks.taskTemplates(workspaceId));
  const read = readRunDocument(body, catalogue);
  if (!read.ok) throw definitionError(read.errors);
  const doc = read.document;
  const fail = (...issues: DefinitionIssue[]) => definitionError(issues.map(doc.place));
  const name = runNameOf(doc.metadata);
  if (await deps.documents.runNameTaken(workspaceId, name))
    throw new ConflictError(`pipelineruns "${name}" already exists: a run of this workspace has that name`);
  const environmentId = await environmentOf(deps, workspaceId, doc, options.environmentId, fail);
  let pipeline: { id: string; name: string; version: number } | undefined;
  let spec: PipelineSpec;
  let definition: string | undefined;
  let note: string | undefined;
  if (doc.pipelineRef) {
    const found = await deps.documents.pipelineByName(workspaceId, doc.pipelineRef);
    if (!found)
      throw fail({
        path: 'spec.pipelineRef.name',
        rule: 'unknown-pipeline',
        message: `no pipeline "${doc.pipelineRef}" in this workspace`,
      });
    note = await deps.prepare?.(workspaceId, found.id);
    const row = await deps.runs.pipeline(workspaceId, found.id);
    if (!row) throw new NotFoundError('Pipeline not found');
    pipeline = { id: row.id, name: row.name, version: row.currentVersion };
    spec = await deps.spec(row.id, row.currentVersion);
    const names = new Set([...spec.tasks, ...(spec.finally ?? [])].map((t) => t.name));
    const unknown = doc.taskRunSpecs.filter((s) => !names.has(s.pipelineTaskName));
    if (unknown.length > 0)
      throw fail(
        ...unknown.map((s) => ({
          path: s.path,
          rule: 'unknown-pipeline-task',
          message: `pipeline "${row.name}" has no task "${s.pipelineTaskName}"`,
        })),
      );
  } else {
    definition = adhocDefinition(doc.adhoc!, doc.adhoc!.name ?? name);
    const loaded = loadDefinition(definition, catalogue);
    if (!loaded.ok) throw new InputError(`The run's pipeline is not valid: ${describeIssues(loaded.errors)}`);
    spec = loaded.definition.spec;
  }
  const params = resolvePipelineParams(spec, doc.params);
  if (!params.ok) throw fail(...params.errors.map((e) => paramIssue(doc, e)));
  const bindings = localBindingIssues(doc.workspaces);
  if (bindings.length > 0 && !(environmentId && (await deps.runs.environmentOnCluster(environmentId))))
    throw fail(
      ...bindings.map((b) => ({ path: `spec.${b.path}`, rule: 'workspace-binding', message: b.message })),
    );
  // a service account other than "default" and a pod template mean something only where a cluster runs the tasks
  const accounts = [...serverServiceAccountIssues(doc.record), ...serverPodTemplateIssues(doc.record)];
  if (accounts.length > 0 && !(environmentId && (await deps.documents.clusterRunsTasks(environmentId))))
    throw fail(...accounts);
  if (!pipeline) {
    try {
      const created = await deps.documents.createAdhoc(
        workspaceId,
        name,
        definition!,
        options.createdBy ?? null,
      );
      pipeline = { ...created };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`pipelineruns "${name}" already exists`);
      throw error;
    }
  }
  const run: NewRun = {
    workspaceId,
    pipelineId: pipeline.id,
    pipelineName: pipeline.name,
    pipelineVersion: pipeline.version,
    name,
    params: params.params,
    workspaceBindings: doc.workspaces,
    timeoutMs: doc.timeoutMs ?? PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS * HOUR_MS,
    // the trigger keeps what the export gives back (labels, timeouts as written, ...)
    trigger: { ...trigger, document: doc.record },
    environmentId: environmentId ?? null,
    message: note ?? null,
  };
  try {
    return await deps.start(run);
  } catch (error) {
    if (definition) await deps.documents.removeAdhoc(pipeline.id);
    throw error;
  }
}

/** The run as a Tekton v1 PipelineRun (see run-export.ts). */
export async function exportRun(
  deps: { runs: RunStore; tasks: TaskStore; definitions: DefinitionSource },
  run: RunRow,
): Promise<Record<string, unknown>> {
  const pipeline = await deps.runs.pipeline(run.workspaceId, run.pipelineId);
  const definition = await deps.definitions
    .load(run.workspaceId, run.pipelineId, run.pipelineVersion)
    .catch(() => undefined);
  const adhoc = pipeline?.kind === ADHOC_PIPELINE_KIND;
  return exportPipelineRun({
    run,
    pipeline: { name: (adhoc ? definition?.name : pipeline?.name) ?? run.name, adhoc },
    spec: definition?.spec,
    taskRuns: await deps.tasks.taskRuns(run.id),
  });
}
