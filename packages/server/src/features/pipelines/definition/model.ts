import { z } from 'zod';
import { parseDuration } from './duration.js';

/*
 * Tekton `tekton.dev/v1` Task, Pipeline and PipelineRun as zod schemas and TypeScript types.
 * Unknown fields (computeResources, podTemplate, ...) are accepted and dropped:
 * a pasted Tekton document parses, and the stored text keeps them unchanged.
 * YAML scalars that Tekton reads as strings (`value: 3`, `values: [true]`) become strings.
 */

export const TEKTON_API_VERSION = 'tekton.dev/v1';
export const TEKTON_V1BETA1 = 'tekton.dev/v1beta1';

const scalar = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const name = z.string().min(1, 'name must not be empty');

export const durationSchema = scalar.refine((text) => parseDuration(text) !== null, {
  message: 'not a duration: write it like 1h30m, 10m or 90s',
});

export const paramValueSchema = z.union([scalar, z.array(scalar), z.record(z.string(), scalar)]);
/** A param value: a string, an array of strings, or an object of string keys. */
export type ParamValue = string | string[] | Record<string, string>;
export type ParamType = 'string' | 'array' | 'object';

export function paramValueType(value: ParamValue): ParamType {
  if (typeof value === 'string') return 'string';
  return Array.isArray(value) ? 'array' : 'object';
}

/** `{ name, value }` as a pipeline task or a run passes it. */
export const paramSchema = z.object({ name, value: paramValueSchema });
export type Param = z.infer<typeof paramSchema>;

/** A declared param. Without `type`, Tekton infers it from the default (else `string`). */
export const paramSpecSchema = z
  .object({
    name,
    type: z.enum(['string', 'array', 'object']).optional(),
    description: z.string().optional(),
    default: paramValueSchema.optional(),
    properties: z.record(z.string(), z.object({ type: z.literal('string').optional() })).optional(),
    enum: z.array(scalar).optional(),
  })
  .transform((p) => ({
    ...p,
    // `properties` without `type` is an object param, as Tekton's defaulting makes it
    type:
      p.type ??
      (p.properties
        ? ('object' as ParamType)
        : p.default !== undefined
          ? paramValueType(p.default)
          : ('string' as ParamType)),
  }));
export type ParamSpec = z.infer<typeof paramSpecSchema>;

/** An object param's value over its default's keys (Tekton fills the keys a value leaves out). */
export function withObjectDefault(param: ParamSpec, value: ParamValue): ParamValue {
  if (
    param.type !== 'object' ||
    !param.default ||
    typeof param.default !== 'object' ||
    typeof value !== 'object'
  )
    return value;
  return { ...(param.default as Record<string, string>), ...(value as Record<string, string>) };
}

export const metadataSchema = z.object({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), scalar).optional(),
  annotations: z.record(z.string(), scalar).optional(),
});
export type Metadata = z.infer<typeof metadataSchema>;

// ── Task ──────────────────────────────────────────────────────────────────────────────────

const keyRef = z.object({ name, key: name, optional: z.boolean().optional() });

export const envVarSchema = z.object({
  name,
  value: scalar.optional(),
  valueFrom: z
    .object({
      secretKeyRef: keyRef.optional(),
      configMapKeyRef: keyRef.optional(),
      /** Kubernetes' downward API: see definition/step-env-values.ts for the fields Slipway gives. */
      fieldRef: z.object({ fieldPath: z.string(), apiVersion: z.string().optional() }).optional(),
      resourceFieldRef: z
        .object({ resource: z.string(), containerName: z.string().optional(), divisor: scalar.optional() })
        .optional(),
    })
    .refine(
      (from) =>
        [from.secretKeyRef, from.configMapKeyRef, from.fieldRef, from.resourceFieldRef].filter(Boolean)
          .length === 1,
      {
        message: 'valueFrom needs exactly one of secretKeyRef, configMapKeyRef, fieldRef or resourceFieldRef',
      },
    )
    .optional(),
});
export type EnvVar = z.infer<typeof envVarSchema>;

const sourceRef = z.object({ name, optional: z.boolean().optional() });

/** Every key of a config map or a secret as env (Kubernetes' EnvFromSource), names prefixed. */
export const envFromSchema = z
  .object({
    prefix: z.string().optional(),
    configMapRef: sourceRef.optional(),
    secretRef: sourceRef.optional(),
  })
  .refine((from) => Boolean(from.configMapRef) !== Boolean(from.secretRef), {
    message: 'envFrom needs exactly one of configMapRef or secretRef',
  });
export type EnvFrom = z.infer<typeof envFromSchema>;

/** A step's or sidecar's `volumeMounts` entry (Kubernetes' VolumeMount): a task volume at a path. */
export const volumeMountSchema = z.object({
  name,
  mountPath: z.string().min(1, 'mountPath must not be empty'),
  readOnly: z.boolean().optional(),
  subPath: z.string().optional(),
});
export type VolumeMount = z.infer<typeof volumeMountSchema>;

const keyToPath = z.object({ key: name, path: name });

/**
 * A Task's volume (Kubernetes' Volume). The local executor provides `emptyDir`, `secret` and
 * `configMap`; any other kind (hostPath, persistentVolumeClaim, …) is kept so the task can be
 * refused when it starts, naming the kind.
 */
export const volumeSchema = z
  .object({
    name,
    emptyDir: z.record(z.string(), z.unknown()).optional(),
    secret: z
      .object({ secretName: name, items: z.array(keyToPath).optional(), optional: z.boolean().optional() })
      .optional(),
    configMap: z
      .object({ name, items: z.array(keyToPath).optional(), optional: z.boolean().optional() })
      .optional(),
  })
  .catchall(z.unknown());
export type Volume = z.infer<typeof volumeSchema>;

const stepFields = {
  image: z.string().optional(),
  command: z.array(scalar).optional(),
  args: z.array(scalar).optional(),
  env: z.array(envVarSchema).optional(),
  envFrom: z.array(envFromSchema).optional(),
  workingDir: z.string().optional(),
  /** runAsUser and runAsGroup are honoured (the uid and gid a sandboxed step runs as); the rest is dropped. */
  securityContext: z
    .object({
      runAsUser: z.number().int().min(0).max(2147483647).optional(),
      runAsGroup: z.number().int().min(0).max(2147483647).optional(),
    })
    .optional(),
  volumeMounts: z.array(volumeMountSchema).optional(),
  /** Read by `resourceFieldRef` env; not enforced by the local executor (decision 020: no cgroup v2). */
  computeResources: z
    .object({
      limits: z.record(z.string(), scalar).optional(),
      requests: z.record(z.string(), scalar).optional(),
    })
    .optional(),
};

/** A step's own result (`$(step.results.r.path)`), read by later steps as `$(steps.<s>.results.r)`. */
export const stepResultSchema = z.object({
  name,
  type: z.enum(['string', 'array', 'object']).default('string'),
  description: z.string().optional(),
  properties: z.record(z.string(), z.object({ type: z.literal('string').optional() })).optional(),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const stepSchema = z.object({
  name: z.string().optional(),
  ...stepFields,
  script: z.string().optional(),
  timeout: durationSchema.optional(),
  /** `continue`, `stopAndFail`, or a `$(params.x)` that resolves to one when the task runs. */
  onError: z
    .string()
    .refine((v) => v === 'continue' || v === 'stopAndFail' || /^\$\((inputs\.)?params[.[][^()]*\)$/.test(v), {
      message: 'onError must be continue or stopAndFail, or a $(params.<name>) that resolves to one',
    })
    .optional(),
  /** A StepAction by name (definition/step-action.ts inlines it); `resolver` (remote) is refused. */
  ref: z.object({ name: z.string().optional(), resolver: z.string().optional() }).optional(),
  /** The params given to the referenced StepAction. */
  params: z.array(paramSchema).optional(),
  results: z.array(stepResultSchema).optional(),
  /** Kept so validation can refuse them: a step's `when`, and stdout/stderr written to a file. */
  when: z.array(z.unknown()).optional(),
  stdoutConfig: z.unknown().optional(),
  stderrConfig: z.unknown().optional(),
});
export type Step = z.infer<typeof stepSchema>;

export const stepTemplateSchema = z.object(stepFields);
export type StepTemplate = z.infer<typeof stepTemplateSchema>;

/** A readiness probe of a sidecar: a command that exits 0, or a TCP port that accepts. */
export const probeSchema = z.object({
  exec: z.object({ command: z.array(scalar).min(1) }).optional(),
  tcpSocket: z
    .object({ port: z.union([z.number().int(), z.string()]), host: z.string().optional() })
    .optional(),
  initialDelaySeconds: z.number().optional(),
  periodSeconds: z.number().optional(),
  /** How long one run of the probe may take (Kubernetes' timeoutSeconds); 5 s when not given. */
  timeoutSeconds: z.number().positive().optional(),
});

/** A Task's sidecar: runs beside the steps, in the task's network, until the last step ends. */
/** A Task's sidecar: `name` is optional, as in Tekton (an unnamed one is `unnamed-<i>`, as steps are). */
export const sidecarSchema = z.object({
  name: z.string().optional(),
  ...stepFields,
  script: z.string().optional(),
  readinessProbe: probeSchema.optional(),
  /** Kubernetes' native sidecars gate the steps on it: taken as the readiness probe when there is none. */
  startupProbe: probeSchema.optional(),
});
export type Sidecar = z.infer<typeof sidecarSchema> & { name: string };

export const taskResultSchema = z.object({
  name,
  /** Without it: an object when `properties` are given (Tekton's defaulting), else a string. */
  type: z.enum(['string', 'array', 'object']).optional(),
  description: z.string().optional(),
  properties: z.record(z.string(), z.object({ type: z.literal('string').optional() })).optional(),
  /** `$(steps.<s>.results.<r>)`: the task result is that step's result (StepActions). */
  value: paramValueSchema.optional(),
});
export type TaskResult = z.infer<typeof taskResultSchema>;

/** A declared result with its type filled in: as written, else an object with `properties`, else a string. */
const typedResult = taskResultSchema.transform((r) => ({
  ...r,
  type: r.type ?? (r.properties ? ('object' as const) : ('string' as const)),
}));

export const taskWorkspaceSchema = z.object({
  name,
  description: z.string().optional(),
  mountPath: z.string().optional(),
  readOnly: z.boolean().optional(),
  optional: z.boolean().optional(),
});
export type TaskWorkspace = z.infer<typeof taskWorkspaceSchema>;

export const taskSpecSchema = z.object({
  displayName: z.string().optional(),
  description: z.string().optional(),
  params: z.array(paramSpecSchema).optional(),
  results: z.array(typedResult).optional(),
  steps: z.array(stepSchema).default([]),
  stepTemplate: stepTemplateSchema.optional(),
  workspaces: z.array(taskWorkspaceSchema).optional(),
  volumes: z.array(volumeSchema).optional(),
  sidecars: z
    .array(sidecarSchema)
    .transform((list) => list.map((s, i): Sidecar => ({ ...s, name: s.name || `unnamed-${i}` })))
    .optional(),
});
export type TaskSpec = z.infer<typeof taskSpecSchema>;

type MountingSpec = Pick<TaskSpec, 'volumes' | 'steps' | 'stepTemplate' | 'sidecars'>;

/**
 * A volumeMount must name a volume of the Task (steps, stepTemplate, sidecars); checked in the
 * schema so that the error carries the line and column of the mount.
 */
function checkVolumeMounts(spec: MountingSpec, ctx: z.RefinementCtx): void {
  const volumes = new Set((spec.volumes ?? []).map((v) => v.name));
  const check = (mounts: readonly VolumeMount[] | undefined, path: (string | number)[]) =>
    (mounts ?? []).forEach((mount, j) => {
      if (!volumes.has(mount.name))
        ctx.addIssue({
          code: 'custom',
          path: [...path, 'volumeMounts', j, 'name'],
          message: `volumeMount "${mount.mountPath}" names volume "${mount.name}", which the task does not declare (spec.volumes)`,
        });
    });
  spec.steps.forEach((step, i) => check(step.volumeMounts, ['steps', i]));
  check(spec.stepTemplate?.volumeMounts, ['stepTemplate']);
  (spec.sidecars ?? []).forEach((sidecar, i) => check(sidecar.volumeMounts, ['sidecars', i]));
}

export const taskSchema = z.object({
  apiVersion: z.literal(TEKTON_API_VERSION),
  kind: z.literal('Task'),
  metadata: metadataSchema.extend({ name }),
  spec: taskSpecSchema.superRefine(checkVolumeMounts),
});
export type Task = z.infer<typeof taskSchema>;

// ── Pipeline ──────────────────────────────────────────────────────────────────────────────

/** `operator` stays a string here so validation can name a wrong one (only in / notin run). */
export const whenExpressionSchema = z.object({
  input: scalar.optional(),
  operator: z.string().optional(),
  values: z.array(scalar).optional(),
  /** CEL when expressions are not supported; kept so validation can say so. */
  cel: z.string().optional(),
});
export type WhenExpression = z.infer<typeof whenExpressionSchema>;

export const workspaceBindingSchema = z.object({
  name,
  /** The pipeline workspace; Tekton defaults it to `name`. */
  workspace: z.string().optional(),
  subPath: z.string().optional(),
});
export type WorkspaceBinding = z.infer<typeof workspaceBindingSchema>;

export const matrixSchema = z.object({
  params: z.array(paramSchema).optional(),
  include: z
    .array(z.object({ name: z.string().optional(), params: z.array(paramSchema).default([]) }))
    .optional(),
});
export type Matrix = z.infer<typeof matrixSchema>;

export const taskRefSchema = z.object({
  name: z.string().optional(),
  kind: z.string().optional(),
  apiVersion: z.string().optional(),
  /** Remote resolution (git, hub, bundles, cluster) is not supported; kept so validation can say so. */
  resolver: z.string().optional(),
});
export type TaskRef = z.infer<typeof taskRefSchema>;

export const pipelineTaskSchema = z.object({
  name,
  displayName: z.string().optional(),
  description: z.string().optional(),
  taskRef: taskRefSchema.optional(),
  taskSpec: taskSpecSchema
    .extend({ metadata: metadataSchema.optional() })
    .superRefine(checkVolumeMounts)
    .optional(),
  params: z.array(paramSchema).optional(),
  runAfter: z.array(z.string()).optional(),
  when: z.array(whenExpressionSchema).optional(),
  workspaces: z.array(workspaceBindingSchema).optional(),
  timeout: durationSchema.optional(),
  retries: z.number().int().min(0).optional(),
  matrix: matrixSchema.optional(),
});
export type PipelineTask = z.infer<typeof pipelineTaskSchema>;

export const pipelineWorkspaceSchema = z.object({
  name,
  description: z.string().optional(),
  optional: z.boolean().optional(),
});
export type PipelineWorkspace = z.infer<typeof pipelineWorkspaceSchema>;

export const pipelineResultSchema = z.object({
  name,
  type: z.enum(['string', 'array', 'object']).optional(),
  description: z.string().optional(),
  value: paramValueSchema,
});
export type PipelineResult = z.infer<typeof pipelineResultSchema>;

export const pipelineSpecSchema = z.object({
  displayName: z.string().optional(),
  description: z.string().optional(),
  params: z.array(paramSpecSchema).optional(),
  workspaces: z.array(pipelineWorkspaceSchema).optional(),
  results: z.array(pipelineResultSchema).optional(),
  tasks: z.array(pipelineTaskSchema).default([]),
  finally: z.array(pipelineTaskSchema).optional(),
});
export type PipelineSpec = z.infer<typeof pipelineSpecSchema>;

export const pipelineSchema = z.object({
  apiVersion: z.literal(TEKTON_API_VERSION),
  kind: z.literal('Pipeline'),
  metadata: metadataSchema.extend({ name }),
  spec: pipelineSpecSchema,
});
export type Pipeline = z.infer<typeof pipelineSchema>;

// ── PipelineRun ───────────────────────────────────────────────────────────────────────────

const looseObject = z.record(z.string(), z.unknown());

export const pipelineRunWorkspaceSchema = z.object({
  name,
  subPath: z.string().optional(),
  emptyDir: looseObject.optional(),
  volumeClaimTemplate: looseObject.optional(),
  persistentVolumeClaim: z.object({ claimName: name, readOnly: z.boolean().optional() }).optional(),
  secret: z.object({ secretName: name }).optional(),
  configMap: z.object({ name, items: z.array(z.object({ key: name, path: name })).optional() }).optional(),
  csi: looseObject.optional(),
  projected: looseObject.optional(),
});
export type PipelineRunWorkspace = z.infer<typeof pipelineRunWorkspaceSchema>;

export const pipelineRunSpecSchema = z.object({
  pipelineRef: z.object({ name: z.string().optional(), resolver: z.string().optional() }).optional(),
  pipelineSpec: pipelineSpecSchema.optional(),
  params: z.array(paramSchema).optional(),
  workspaces: z.array(pipelineRunWorkspaceSchema).optional(),
  timeouts: z
    .object({
      pipeline: durationSchema.optional(),
      tasks: durationSchema.optional(),
      finally: durationSchema.optional(),
    })
    .optional(),
  taskRunTemplate: z.object({ serviceAccountName: z.string().optional() }).optional(),
  status: z.string().optional(),
});
export type PipelineRunSpec = z.infer<typeof pipelineRunSpecSchema>;

export const pipelineRunSchema = z.object({
  apiVersion: z.literal(TEKTON_API_VERSION),
  kind: z.literal('PipelineRun'),
  metadata: metadataSchema,
  spec: pipelineRunSpecSchema,
});
export type PipelineRun = z.infer<typeof pipelineRunSchema>;

// ── StepAction ────────────────────────────────────────────────────────────────────────────

/*
 * Tekton's StepAction (tekton.dev/v1beta1, and the older v1alpha1): a reusable step that a Task's
 * step runs by `ref: {name}` with `params` (definition/step-action.ts validates and inlines it).
 */

export const STEP_ACTION_API_VERSIONS = ['tekton.dev/v1beta1', 'tekton.dev/v1alpha1'] as const;

export const stepActionSpecSchema = z.object({
  description: z.string().optional(),
  image: z.string().optional(),
  command: z.array(scalar).optional(),
  args: z.array(scalar).optional(),
  script: z.string().optional(),
  env: z.array(envVarSchema).optional(),
  params: z.array(paramSpecSchema).optional(),
  results: z.array(stepResultSchema).optional(),
  workingDir: z.string().optional(),
  securityContext: stepSchema.shape.securityContext,
  volumeMounts: z.array(volumeMountSchema).optional(),
});
export type StepActionSpec = z.infer<typeof stepActionSpecSchema>;

export const stepActionSchema = z.object({
  apiVersion: z.enum(STEP_ACTION_API_VERSIONS),
  kind: z.literal('StepAction'),
  metadata: metadataSchema.extend({ name: z.string().min(1, 'name must not be empty') }),
  spec: stepActionSpecSchema,
});
export type StepAction = z.infer<typeof stepActionSchema>;

/** StepActions a step may reference by `ref.name`. */
export type StepActionCatalogue = ReadonlyMap<string, StepAction>;

export type TektonDocument = Task | Pipeline | PipelineRun | StepAction;
export type TektonKind = TektonDocument['kind'];
export const TEKTON_KINDS: readonly TektonKind[] = ['Task', 'Pipeline', 'PipelineRun', 'StepAction'];
