import type { TaskIo, TaskOutcome } from './executor.js';
import { usesStepValues } from './step-values.js';
import type { ResolvedTaskRun } from './types.js';

/**
 * What a task asks that the Kubernetes executor's shell wrapper (kubernetes-executor-pod.ts)
 * cannot give, named; undefined when it can run the task. Tekton on the cluster can (the
 * hand-off): this executor runs each step's command inside `sh -c`, without Tekton's entrypoint.
 */
export function kubernetesRefusal(run: ResolvedTaskRun): string | undefined {
  const sidecar = run.sidecars?.[0];
  if (sidecar)
    return `sidecar "${sidecar.name}": the Kubernetes executor does not run sidecars (run the task locally, or on a cluster with Tekton Pipelines)`;
  const template = podTemplateRefusal(run.podTemplate);
  if (template) return template;
  const volume = run.volumes?.[0];
  if (volume)
    return `volume "${volume.name}": the Kubernetes executor mounts only workspaces, not a Task's volumes (run the task locally, or on a cluster with Tekton Pipelines)`;
  for (const step of run.steps) {
    if (step.runAsUser !== undefined || step.runAsGroup !== undefined)
      return `step "${step.name}" sets securityContext.runAsUser or runAsGroup, which the Kubernetes executor does not apply`;
    if (step.script === undefined && !step.command?.length)
      return `step "${step.name}" has neither command nor script: the Kubernetes executor wraps each step in a shell and cannot run its image's own entrypoint; give the step a command`;
    if (usesStepValues(step))
      return `step "${step.name}" uses step results, a step's exit code path or $(credentials.path), which the Kubernetes executor does not provide (run the task locally, or on a cluster with Tekton Pipelines)`;
  }
  if (run.resultsFromSteps)
    return `task "${run.name}" takes results from step results, which the Kubernetes executor does not provide`;
  return undefined;
}

/**
 * What of a pod template the Kubernetes executor cannot apply: its `volumes` (in Tekton they serve
 * the Task's own volumeMounts, which this executor does not mount; run documents refuse them
 * already, run-pod-templates.ts) and a `$(...)` left after the task's params were substituted
 * (substitutePodTemplate).
 */
function podTemplateRefusal(template: Record<string, unknown> | undefined): string | undefined {
  if (!template) return undefined;
  if (Array.isArray(template.volumes) && template.volumes.length > 0)
    return `podTemplate.volumes: the Kubernetes executor mounts only workspaces, not volumes for a Task's volumeMounts`;
  const variable = Object.entries(template).find(([, value]) => JSON.stringify(value).includes('$('));
  if (variable)
    return `podTemplate.${variable[0]} uses a $(...) that is not one of the task's string params, the only variables a pod template takes (as in Tekton, which would leave it as written)`;
  return undefined;
}

/** The outcome of a task refused before it started: every step skipped with the reason. */
export function refusedOutcome(run: ResolvedTaskRun, io: TaskIo, reason: string): TaskOutcome {
  for (const step of run.steps) io.onStepState(step.name, 'skipped');
  return {
    status: 'failed',
    reason,
    steps: run.steps.map((s) => ({
      name: s.name,
      status: 'skipped',
      exitCode: null,
      startedAt: null,
      finishedAt: null,
      reason,
    })),
    results: {},
    attempts: 1,
  };
}
