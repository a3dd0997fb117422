import type { EnvVar, Step, StepTemplate, VolumeMount } from './model.js';

/** The template's volumeMounts and the step's, merged by mountPath (the step's entry wins). */
function mergeVolumeMounts(
  template: readonly VolumeMount[] | undefined,
  own: readonly VolumeMount[] | undefined,
): VolumeMount[] | undefined {
  if (!template?.length) return own ? [...own] : undefined;
  const byPath = new Map<string, VolumeMount>();
  for (const mount of [...template, ...(own ?? [])]) byPath.set(mount.mountPath, mount);
  return [...byPath.values()];
}

/** computeResources merged per resource name (the step's wins), as a strategic merge of the container does. */
function mergeResources(
  template: StepTemplate['computeResources'],
  own: StepTemplate['computeResources'],
): StepTemplate['computeResources'] {
  if (!template) return own;
  if (!own) return template;
  return {
    limits: { ...template.limits, ...own.limits },
    requests: { ...template.requests, ...own.requests },
  };
}

/**
 * Applies a Task's `stepTemplate` to a step the way Tekton does: fields the step sets win,
 * `env` is merged by name (the step's entry wins), computeResources per resource, lists like `command` / `args` / `envFrom` are
 * replaced.
 */
export function applyStepTemplate(step: Step, template: StepTemplate | undefined): Step {
  if (!template) return step;
  const env = new Map<string, EnvVar>();
  for (const entry of template.env ?? []) env.set(entry.name, entry);
  for (const entry of step.env ?? []) env.set(entry.name, entry);
  return {
    ...step,
    image: step.image ?? template.image,
    command: step.command ?? template.command,
    args: step.args ?? template.args,
    workingDir: step.workingDir ?? template.workingDir,
    envFrom: step.envFrom ?? template.envFrom,
    volumeMounts: mergeVolumeMounts(template.volumeMounts, step.volumeMounts),
    computeResources: mergeResources(template.computeResources, step.computeResources),
    env: env.size > 0 ? [...env.values()] : undefined,
  };
}
