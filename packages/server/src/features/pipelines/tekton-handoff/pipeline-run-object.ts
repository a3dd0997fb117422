import {
  formatDuration,
  parseDuration,
  TEKTON_API_VERSION,
  taskSpecFor,
  type PipelineTask,
} from '../definition/index.js';
import type { RunDefinition } from '../../pipeline-runs/run-definition.js';
import type { RunDocumentRecord } from '../../pipeline-runs/run-document.js';
import { documentRecordOf } from '../../pipeline-runs/run-service-accounts.js';
import { runReferences, type Reference } from './run-references.js';

/** The label every object Slipway hands to Tekton carries: the Slipway run's id. */
export const RUN_ID_LABEL = 'slipway.dev/run-id';
/** The image of the steps Slipway carries out itself (deploy, apply-yaml): deployments/deploy-tasks.ts. */
const IN_SERVER_IMAGE = 'slipway.dev/in-server';

export type PipelineRunObject = {
  apiVersion: string;
  kind: 'PipelineRun';
  metadata: {
    name: string;
    namespace: string;
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  spec: Record<string, unknown>;
};

/** What a pipeline task is in the run: a finally task or not, and its steps (names and images). */
export interface PlannedTask {
  isFinally: boolean;
  steps: { name: string; image: string }[];
}

export interface PipelineRunPlan {
  name: string;
  namespace: string;
  object: PipelineRunObject;
  /** the secrets and config maps it reads (rename them before it is sent) */
  references: Reference[];
  tasks: Map<string, PlannedTask>;
}

/** A run that cannot be handed to Tekton as it is: the message says what and why. */
export class HandOffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandOffError';
  }
}

export interface PlanInput {
  run: {
    id: string;
    name: string;
    params: unknown;
    workspaceBindings: unknown;
    /** a run document's run keeps its timeouts and service accounts here (trigger.document) */
    trigger?: unknown;
  };
  definition: RunDefinition;
  namespace: string;
  /** the run's effective timeout: `spec.timeouts.pipeline` */
  timeoutMs: number;
}

/** The PipelineRun's name: the run's name made a DNS label, and 8 characters of its id (unique, and the same on a resume). */
export function pipelineRunName(run: { id: string; name: string }): string {
  const slug = run.name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const id = run.id
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 8);
  return slug ? `${slug}-${id}` : `run-${id}`;
}

/** Pipeline tasks Slipway carries out itself (deploy, apply-yaml): Tekton cannot run them. */
export function inServerTasks(definition: RunDefinition): string[] {
  const all = [...definition.spec.tasks, ...(definition.spec.finally ?? [])];
  return all
    .filter((pt) =>
      (taskSpecFor(pt, definition.catalogue)?.steps ?? []).some((s) => s.image === IN_SERVER_IMAGE),
    )
    .map((pt) => pt.name);
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A pipeline task with its Task inlined (`taskSpec`): the run's task templates are not on the cluster. */
function inlined(
  pt: PipelineTask,
  definition: RunDefinition,
): { task: Record<string, unknown>; steps: PlannedTask['steps'] } {
  if (pt.taskRef?.resolver)
    throw new HandOffError(
      `pipeline task "${pt.name}" uses the ${pt.taskRef.resolver} resolver, which Slipway does not support`,
    );
  const spec = taskSpecFor(pt, definition.catalogue);
  if (!spec)
    throw new HandOffError(
      `pipeline task "${pt.name}": task "${pt.taskRef?.name ?? ''}" is not in the catalogue`,
    );
  const { taskRef: _taskRef, ...rest } = plain(pt) as PipelineTask & Record<string, unknown>;
  // a step without a name is `unnamed-<i>` to Tekton (its container `step-unnamed-<i>`); it is
  // written so, since the Task CRD's schema requires a step's name
  const taskSpec = plain(spec);
  taskSpec.steps = taskSpec.steps.map((s, i) => (s.name ? s : { ...s, name: `unnamed-${i}` }));
  const steps = taskSpec.steps.map((s) => ({ name: s.name!, image: s.image ?? '' }));
  return { task: { ...rest, taskSpec }, steps };
}

/**
 * The `tekton.dev/v1` PipelineRun a run is handed to Tekton as: the pipeline inline
 * (`pipelineSpec`, each Task inline as `taskSpec`), the run's params and workspace bindings (a
 * pipeline workspace the run does not bind gets a volumeClaimTemplate, as Slipway's pods get a
 * claim), its timeout as `spec.timeouts.pipeline`, labelled with the run's id.
 */
export function pipelineRunPlan(input: PlanInput): PipelineRunPlan {
  const { run, definition, namespace } = input;
  const blocked = inServerTasks(definition);
  if (blocked.length > 0)
    throw new HandOffError(
      `tasks ${blocked.map((n) => `"${n}"`).join(', ')} are carried out by Slipway itself (deploy, apply-yaml)`,
    );
  const tasks = new Map<string, PlannedTask>();
  const inline = (list: readonly PipelineTask[], isFinally: boolean) =>
    list.map((pt) => {
      const { task, steps } = inlined(pt, definition);
      tasks.set(pt.name, { isFinally, steps });
      return task;
    });
  const spec = plain(definition.spec) as Record<string, unknown>;
  spec.tasks = inline(definition.spec.tasks, false);
  if (definition.spec.finally?.length) spec.finally = inline(definition.spec.finally, true);
  const params = Object.entries((run.params ?? {}) as Record<string, unknown>).map(([name, value]) => ({
    name,
    value,
  }));
  const bindings = plain(Array.isArray(run.workspaceBindings) ? run.workspaceBindings : []) as {
    name: string;
  }[];
  const bound = new Set(bindings.map((b) => b.name));
  for (const w of definition.spec.workspaces ?? []) {
    if (bound.has(w.name) || w.optional) continue;
    bindings.push({
      name: w.name,
      volumeClaimTemplate: {
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    } as { name: string });
  }
  const name = pipelineRunName(run);
  const record = documentRecordOf(run.trigger);
  const object: PipelineRunObject = {
    apiVersion: TEKTON_API_VERSION,
    kind: 'PipelineRun',
    metadata: {
      name,
      namespace,
      labels: { [RUN_ID_LABEL]: run.id, 'app.kubernetes.io/managed-by': 'slipway' },
      annotations: { 'slipway.dev/run-name': run.name },
    },
    spec: {
      pipelineSpec: spec,
      ...(params.length > 0 ? { params } : {}),
      ...(bindings.length > 0 ? { workspaces: bindings } : {}),
      // formatDuration writes a Go duration (`1h0m0s`), as spec.timeouts takes it
      timeouts: { pipeline: formatDuration(input.timeoutMs), ...sectionsOf(record, input.timeoutMs) },
      ...serviceAccountsOf(record),
    },
  };
  return { name, namespace, object, references: runReferences(object), tasks };
}

/**
 * A run document's `timeouts.tasks` and `timeouts.finally`, within the pipeline timeout sent (the
 * run's own, or its organisation's shorter cap): "0" (no deadline for the section) is left out, as
 * Tekton takes "0" only beside a pipeline timeout of "0", which Slipway sends as its longest run.
 */
function sectionsOf(record: Partial<RunDocumentRecord>, pipelineMs: number): Record<string, string> {
  const ms = (key: string) => {
    const text = record.timeouts?.[key];
    const value = text === undefined ? null : parseDuration(text);
    return value ? value : undefined;
  };
  const tasks = ms('tasks') === undefined ? undefined : Math.min(ms('tasks')!, pipelineMs);
  const fin = ms('finally') === undefined ? undefined : Math.min(ms('finally')!, pipelineMs - (tasks ?? 0));
  return {
    ...(tasks !== undefined ? { tasks: formatDuration(tasks) } : {}),
    ...(fin !== undefined && fin > 0 ? { finally: formatDuration(fin) } : {}),
  };
}

/**
 * A run document's service accounts and pod templates: `taskRunTemplate` and the `taskRunSpecs`
 * that name one or give one, as written (Tekton merges a taskRunSpec's pod template over the
 * taskRunTemplate's itself).
 */
function serviceAccountsOf(record: Partial<RunDocumentRecord>): Record<string, unknown> {
  const specs = (record.taskRunSpecs ?? [])
    .filter((s) => typeof s.serviceAccountName === 'string' || isTemplate(s.podTemplate))
    .map((s) => ({
      pipelineTaskName: s.pipelineTaskName,
      ...(typeof s.serviceAccountName === 'string' ? { serviceAccountName: s.serviceAccountName } : {}),
      ...(isTemplate(s.podTemplate) ? { podTemplate: s.podTemplate } : {}),
    }));
  const template = {
    ...(record.serviceAccountName ? { serviceAccountName: record.serviceAccountName } : {}),
    ...(isTemplate(record.podTemplate) ? { podTemplate: record.podTemplate } : {}),
  };
  return {
    ...(Object.keys(template).length > 0 ? { taskRunTemplate: template } : {}),
    ...(specs.length > 0 ? { taskRunSpecs: specs } : {}),
  };
}

const isTemplate = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
