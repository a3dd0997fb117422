import type { AgentGateway } from '../../agent-gateway/agent-gateway.js';
import type { Executor, TaskIo, TaskOutcome } from './executor.js';
import { KubernetesExecutor } from './kubernetes-executor.js';
import type { ResolvedTaskRun } from './types.js';

/**
 * Where a run's environment deploys: its cluster and namespace, or null without a cluster; and
 * whether the run's other tasks stay on Slipway's local executor (the environment's task runner
 * is `server`) instead of running as pods there.
 */
export type EnvironmentTarget = (
  environmentId: string,
) => Promise<{ clusterId: string; namespace: string; tasksOnServer?: boolean } | null>;

/**
 * The engine's `executorFor`: a run that targets an environment bound to a cluster runs its tasks
 * there (KubernetesExecutor, through the cluster's agent) unless the environment's task runner is
 * the server; every other run runs locally. The
 * environment is read when each task starts, so a change of binding applies to the next task.
 */
export function executorResolver(deps: {
  local: Executor;
  gateway: AgentGateway;
  target: EnvironmentTarget;
  pollMs?: number;
}): (run: { id?: string; environmentId: string | null }) => Executor {
  return (run) => {
    const environmentId = run.environmentId;
    if (!environmentId) return deps.local;
    return {
      // the task may still run locally (an environment without a cluster): the local executor's
      // paths, which a pod honours too
      containerPaths: deps.local.containerPaths,
      async runTask(task: ResolvedTaskRun, io: TaskIo, signal: AbortSignal): Promise<TaskOutcome> {
        const target = await deps.target(environmentId);
        if (!target || target.tasksOnServer) return deps.local.runTask(task, io, signal);
        const executor = new KubernetesExecutor({
          gateway: deps.gateway,
          clusterId: target.clusterId,
          namespace: target.namespace,
          ...(run.id ? { runId: run.id } : {}),
          ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
        });
        return executor.runTask(task, io, signal);
      },
    };
  };
}
