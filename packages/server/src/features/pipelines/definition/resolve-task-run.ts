import { posix } from 'node:path';
import { SubstitutionError } from './definition-issue.js';
import { parseDuration } from './duration.js';
import type { ParamValue, PipelineTask, Sidecar, Step, Task, TaskSpec, Volume } from './model.js';
import { applyStepTemplate } from './step-template.js';
import { substitute, type SubstitutionContext } from './substitute.js';
import { isRetryCount } from './retry-count.js';
import { specOf } from './task-catalogue.js';
import { wholeReference } from './references.js';
import { downwardValue, podFieldsOf, type PodFields } from './step-env-values.js';
import { resolveParamVariables, taskParamValues, taskWorkspaces } from './task-params.js';

export interface ResolvedStep {
  name: string;
  image: string;
  script?: string;
  command?: string[];
  args?: string[];
  env: Record<string, string>;
  /** Env vars the executor fills from secrets (`valueFrom.secretKeyRef`). */
  secretEnv: { name: string; secret: string; key: string; optional?: boolean }[];
  /**
   * Env vars from config maps (`valueFrom.configMapKeyRef`). The run engine folds them into `env`
   * before the executor sees the step.
   */
  configMapEnv?: { name: string; configMap: string; key: string; optional?: boolean }[];
  /**
   * Every key of a config map or secret as env (`envFrom`), in order. The run engine folds them
   * into `env` (config maps) and `secretEnv` (secrets) before the executor sees the step.
   */
  envFrom?: { kind: 'configMap' | 'secret'; name: string; prefix?: string; optional?: boolean }[];
  workingDir?: string;
  timeoutMs?: number;
  onError: 'continue' | 'stopAndFail';
  /** `securityContext.runAsUser` / `runAsGroup`: the uid and gid inside a sandbox. */
  runAsUser?: number;
  runAsGroup?: number;
  /** Task volumes bound into the step's sandbox (`volumeMounts`, the stepTemplate's merged in). */
  volumeMounts?: ResolvedVolumeMount[];
}

export interface ResolvedVolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

/** A Task's volume (`spec.volumes`). */
export interface ResolvedVolume {
  name: string;
  /** `emptyDir`, `secret` or `configMap`; any other kind (`hostPath`, …) the local executor refuses. */
  kind: string;
  /** The secret's `secretName` or the config map's `name`. */
  source?: string;
  items?: { key: string; path: string }[];
  optional?: boolean;
  /**
   * A secret's or config map's files on the host, written by the run engine before the task
   * runs (see RunDirectory.writeVolumes); the executor binds them read-only.
   */
  hostPath?: string;
}

/** A Task's sidecar: a step that runs beside the steps until the last one ends. */
export interface ResolvedSidecar extends ResolvedStep {
  /** Ready when this command exits 0, or this port accepts; absent: ready once started (Tekton). */
  readiness?: { exec?: string[]; tcpPort?: number; timeoutMs?: number };
}

/** A workspace as a sandboxed step sees it: the host directory bound at the Task's path. */
export interface WorkspaceMount {
  name: string;
  hostPath: string;
  /** The pipeline workspace's directory, which `hostPath` (with the binding's subPath) must lie in. */
  base: string;
  /** `mountPath`, or `/workspace/<name>` (Tekton's default). */
  path: string;
  readOnly: boolean;
}

/** A task run with every `$(...)` resolved: what an executor consumes. */
export interface ResolvedTaskRun {
  /** The pipeline task's name (`build-0` for a matrix run). */
  name: string;
  /** The param values the task sees: the pipeline task's over the task's defaults. */
  params: Record<string, ParamValue>;
  steps: ResolvedStep[];
  /** Steps write result `r` to `<resultsDir>/r`. */
  resultsDir: string;
  results: string[];
  /** Task workspace name → the path steps see; optional workspaces left unbound are absent. */
  workspaces: Record<string, string>;
  /**
   * With container paths (a sandboxed executor): each workspace's host directory and where steps
   * see it; `$(results.r.path)` is then `/tekton/results/r`, while `resultsDir` stays the host's.
   */
  mounts?: WorkspaceMount[];
  /** The Task asks for no network (annotation `slipway.dev/network: none`). */
  noNetwork?: boolean;
  /** The task run's id: names its process groups in the step supervisor, so a restart re-attaches. */
  key?: string;
  /** The task run was running when its server stopped: its steps re-attach where they can. */
  resumed?: boolean;
  /** `spec.volumes`, when the Task declares any. */
  volumes?: ResolvedVolume[];
  /** `spec.sidecars`, when the Task declares any. */
  sidecars?: ResolvedSidecar[];
  /** Task results whose `value` is a step's result (`$(steps.<s>.results.<r>)`): the executor copies them. */
  resultsFromSteps?: Record<string, { step: string; result: string }>;
  timeoutMs?: number;
  retries: number;
  /** Whose run this is (its organisation): step slots are shared fairly between tenants. */
  tenant?: string;
  /**
   * The Kubernetes service account the task runs as (a run document's taskRunSpecs or
   * taskRunTemplate); absent for the namespace's "default". Only an executor whose tasks run in a
   * cluster can honour it: the others refuse the task (pipeline-runs/run-service-accounts.ts).
   */
  serviceAccountName?: string;
  /**
   * The pod template the task's pod takes (a run document's taskRunSpecs over its
   * taskRunTemplate, Tekton's fields). Only the Kubernetes executor can honour it: Slipway's own
   * executor refuses the task (pipeline-runs/run-pod-templates.ts).
   */
  podTemplate?: Record<string, unknown>;
}

export interface ResolveContext extends SubstitutionContext {
  /** Where this task run's result files go. */
  resultsDir: string;
  /** Pipeline workspace name → path (a fresh directory for any left unbound by the run). */
  pipelineWorkspaces?: Record<string, string>;
  /**
   * Steps run in containers (the sandbox): workspaces appear at `/workspace/<name>` (or their
   * `mountPath`) and results under `/tekton/results`, as in Tekton.
   */
  containerPaths?: boolean;
  /** Pipeline workspaces steps may only read (bound to a config map or a secret). */
  readOnlyWorkspaces?: readonly string[];
}

/** Where Tekton puts a task's results inside its containers. */
export const CONTAINER_RESULTS_DIR = '/tekton/results';

const fail = (reference: string, message: string): never => {
  throw new SubstitutionError(reference, message);
};

function workspacePaths(task: PipelineTask, spec: TaskSpec, ctx: ResolveContext, mounts: WorkspaceMount[]) {
  const paths: Record<string, string | null> = {};
  const { workspaces, bindings } = taskWorkspaces(task, spec);
  for (const workspace of workspaces) {
    const binding = bindings.find((b) => b.name === workspace.name);
    const base = binding ? ctx.pipelineWorkspaces?.[binding.workspace ?? binding.name] : undefined;
    if (base === undefined) {
      if (workspace.optional) paths[workspace.name] = null;
      else
        fail(
          `$(workspaces.${workspace.name}.path)`,
          `task "${task.name}" needs workspace "${workspace.name}": not bound`,
        );
      continue;
    }
    const hostPath = binding?.subPath ? posix.join(base, substitute(binding.subPath, ctx)) : base;
    if (!ctx.containerPaths) {
      paths[workspace.name] = hostPath;
      continue;
    }
    const path = workspace.mountPath
      ? posix.resolve('/workspace', workspace.mountPath)
      : `/workspace/${workspace.name}`;
    const pipelineName = binding?.workspace ?? binding?.name ?? workspace.name;
    const readOnly = Boolean(workspace.readOnly) || Boolean(ctx.readOnlyWorkspaces?.includes(pipelineName));
    mounts.push({ name: workspace.name, hostPath, base, path, readOnly });
    paths[workspace.name] = path;
  }
  return paths;
}

function resolveStep(step: Step, index: number, ctx: SubstitutionContext, pod?: PodFields): ResolvedStep {
  const name = step.name ?? `unnamed-${index}`;
  if (step.ref)
    return fail(
      name,
      `step "${name}" references StepAction "${step.ref.name ?? ''}", which is not known here`,
    );
  if (!step.image) return fail(name, `step "${name}" has no image`);
  const env: Record<string, string> = {};
  const secretEnv: ResolvedStep['secretEnv'] = [];
  const configMapEnv: NonNullable<ResolvedStep['configMapEnv']> = [];
  for (const entry of step.env ?? []) {
    const secretRef = entry.valueFrom?.secretKeyRef;
    const configMapRef = entry.valueFrom?.configMapKeyRef;
    if (secretRef)
      secretEnv.push({
        name: entry.name,
        secret: substitute(secretRef.name, ctx),
        key: substitute(secretRef.key, ctx),
        ...(secretRef.optional ? { optional: true } : {}),
      });
    else if (configMapRef)
      configMapEnv.push({
        name: entry.name,
        configMap: substitute(configMapRef.name, ctx),
        key: substitute(configMapRef.key, ctx),
        ...(configMapRef.optional ? { optional: true } : {}),
      });
    else if (entry.valueFrom) env[entry.name] = downwardValue(entry, step, name, pod);
    else env[entry.name] = substitute(entry.value ?? '', ctx);
  }
  const envFrom: NonNullable<ResolvedStep['envFrom']> = (step.envFrom ?? []).map((from) => {
    const ref = (from.configMapRef ?? from.secretRef)!;
    return {
      kind: from.configMapRef ? 'configMap' : 'secret',
      name: substitute(ref.name, ctx),
      ...(from.prefix ? { prefix: substitute(from.prefix, ctx) } : {}),
      ...(ref.optional ? { optional: true } : {}),
    };
  });
  const onError = step.onError === undefined ? 'stopAndFail' : substitute(step.onError, ctx);
  if (onError !== 'continue' && onError !== 'stopAndFail')
    return fail(
      step.onError!,
      `step "${name}": onError ${step.onError} is "${onError}": it must be continue or stopAndFail`,
    );
  const timeoutMs = step.timeout !== undefined ? parseDuration(step.timeout) : null;
  return {
    name,
    image: substitute(step.image, ctx),
    ...(step.script !== undefined ? { script: substitute(step.script, ctx) } : {}),
    ...(step.command ? { command: substitute(step.command, ctx) } : {}),
    ...(step.args ? { args: substitute(step.args, ctx) } : {}),
    env,
    secretEnv,
    ...(configMapEnv.length > 0 ? { configMapEnv } : {}),
    ...(envFrom.length > 0 ? { envFrom } : {}),
    ...(step.workingDir ? { workingDir: substitute(step.workingDir, ctx) } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
    onError,
    ...(step.securityContext?.runAsUser !== undefined ? { runAsUser: step.securityContext.runAsUser } : {}),
    ...(step.securityContext?.runAsGroup !== undefined
      ? { runAsGroup: step.securityContext.runAsGroup }
      : {}),
    ...(step.volumeMounts?.length
      ? {
          volumeMounts: step.volumeMounts.map((m) => ({
            name: substitute(m.name, ctx),
            mountPath: substitute(m.mountPath, ctx),
            ...(m.readOnly ? { readOnly: true } : {}),
            ...(m.subPath ? { subPath: substitute(m.subPath, ctx) } : {}),
          })),
        }
      : {}),
  };
}

const VOLUME_FIELDS = new Set(['name']);

function resolveVolume(volume: Volume, ctx: SubstitutionContext): ResolvedVolume {
  if (volume.emptyDir) return { name: volume.name, kind: 'emptyDir' };
  const from = volume.secret
    ? { kind: 'secret', source: volume.secret.secretName, ...volume.secret }
    : volume.configMap
      ? { kind: 'configMap', source: volume.configMap.name, ...volume.configMap }
      : undefined;
  if (!from) {
    const kind = Object.keys(volume).find((key) => !VOLUME_FIELDS.has(key)) ?? 'volume of no kind';
    return { name: volume.name, kind };
  }
  return {
    name: volume.name,
    kind: from.kind,
    source: substitute(from.source, ctx),
    ...(from.items
      ? { items: from.items.map((i) => ({ key: substitute(i.key, ctx), path: substitute(i.path, ctx) })) }
      : {}),
    ...(from.optional ? { optional: true } : {}),
  };
}

function resolveSidecar(
  sidecar: Sidecar,
  index: number,
  ctx: SubstitutionContext,
  pod?: PodFields,
): ResolvedSidecar {
  const step = resolveStep(sidecar, index, ctx, pod);
  const probe = sidecar.readinessProbe ?? sidecar.startupProbe;
  const timeout = probe?.timeoutSeconds ? { timeoutMs: probe.timeoutSeconds * 1000 } : {};
  const port = probe?.tcpSocket ? Number(substitute(String(probe.tcpSocket.port), ctx)) : undefined;
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65536))
    return fail(step.name, `sidecar "${step.name}": readinessProbe.tcpSocket.port must be a port number`);
  const readiness = probe?.exec
    ? { exec: substitute(probe.exec.command, ctx), ...timeout }
    : port !== undefined
      ? { tcpPort: port, ...timeout }
      : undefined;
  return { ...step, ...(readiness ? { readiness } : {}) };
}

/** The network a Task asks for: annotation `slipway.dev/network: none` turns it off. */
function networkOf(task: Task | TaskSpec): string | undefined {
  const annotations = 'metadata' in task ? task.metadata?.annotations : undefined;
  const value = annotations?.['slipway.dev/network'];
  return value === undefined ? undefined : String(value);
}

/**
 * Resolves a pipeline task (already expanded, if it had a matrix) against its Task: params
 * (pipeline task's over defaults, pipeline-level references substituted first), workspace paths,
 * result paths and every `$(...)` in the steps. Throws SubstitutionError naming what is missing.
 */
export function resolveTaskRun(
  pipelineTask: PipelineTask,
  task: Task | TaskSpec,
  context: ResolveContext,
): ResolvedTaskRun {
  const spec = specOf(task);
  const taskParams = taskParamValues(pipelineTask, spec, context);
  const mounts: WorkspaceMount[] = [];
  const workspaces = workspacePaths(pipelineTask, spec, context, mounts);
  const results = (spec.results ?? []).map((r) => r.name);
  const inline = Boolean(pipelineTask.taskSpec);
  const retryCount = context.context?.task?.retryCount;
  const stepContext: SubstitutionContext = {
    params: taskParams,
    resultsDir: context.containerPaths ? CONTAINER_RESULTS_DIR : context.resultsDir,
    declaredResults: results,
    workspaces,
    context: {
      ...context.context,
      task: { name: pipelineTask.taskRef?.name ?? pipelineTask.name, ...context.context?.task },
      pipelineTask: { retries: pipelineTask.retries ?? 0 },
    },
    // the attempt's number is known when it starts: the executor fills it in (forAttempt)
    ...(retryCount === undefined ? { leave: isRetryCount } : {}),
    // An inline taskSpec may also read earlier results and, in finally, task statuses.
    ...(inline
      ? {
          taskResults: context.taskResults,
          taskStatuses: context.taskStatuses,
          taskReasons: context.taskReasons,
          tasksStatus: context.tasksStatus,
          matrixLengths: context.matrixLengths,
        }
      : {}),
  };
  const params = resolveParamVariables(taskParams, stepContext);
  stepContext.params = params;
  const pod = podFieldsOf(pipelineTask, 'metadata' in task ? task.metadata : undefined, stepContext.context);
  const steps = spec.steps.map((step, i) =>
    resolveStep(applyStepTemplate(step, spec.stepTemplate), i, stepContext, pod),
  );
  const timeoutMs = pipelineTask.timeout !== undefined ? parseDuration(pipelineTask.timeout) : null;
  return {
    name: pipelineTask.name,
    params,
    steps,
    resultsDir: context.resultsDir,
    results,
    workspaces: Object.fromEntries(
      Object.entries(workspaces).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
    ...(timeoutMs ? { timeoutMs } : {}),
    retries: pipelineTask.retries ?? 0,
    ...(context.containerPaths ? { mounts } : {}),
    ...(context.context?.taskRun?.uid ? { key: context.context.taskRun.uid } : {}),
    ...(networkOf(task) === 'none' ? { noNetwork: true } : {}),
    ...(spec.volumes?.length ? { volumes: spec.volumes.map((v) => resolveVolume(v, stepContext)) } : {}),
    ...(spec.sidecars?.length
      ? { sidecars: spec.sidecars.map((s, i) => resolveSidecar(s, i, stepContext, pod)) }
      : {}),
    ...resultsFromSteps(spec),
  };
}

/** Task results whose value is `$(steps.<s>.results.<r>)` (validated by validate-step-refs.ts). */
function resultsFromSteps(spec: TaskSpec): Pick<ResolvedTaskRun, 'resultsFromSteps'> {
  const found: NonNullable<ResolvedTaskRun['resultsFromSteps']> = {};
  for (const result of spec.results ?? []) {
    const whole = typeof result.value === 'string' ? wholeReference(result.value) : null;
    if (whole?.kind === 'stepResult') found[result.name] = { step: whole.step, result: whole.result };
  }
  return Object.keys(found).length > 0 ? { resultsFromSteps: found } : {};
}
