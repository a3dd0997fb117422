import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { isInServerTask, type DeployExecutor } from '../deployments/deploy-executor.js';
import type { Executor } from '../pipelines/executor/executor.js';
import {
  executorResolver,
  type EnvironmentTarget,
} from '../pipelines/executor/kubernetes-executor-resolver.js';
import { refusedOutcome } from '../pipelines/executor/kubernetes-executor-refusals.js';
import type { LocalExecutor } from '../pipelines/executor/local-executor.js';
import { tektonHandOff, type TektonTarget } from '../pipelines/tekton-handoff/tekton-hand-off.js';
import { guardGitClone } from '../pipeline-catalogue/built-in-tasks/git-clone-guard.js';
import { GitUrlPolicy } from '../../platform/git-url-policy.js';

/**
 * The run engine's executors: apply-yaml and deploy tasks are carried out by Slipway through the
 * environment's cluster agent; other tasks of a run whose environment is bound to a cluster run
 * there as pods (Kubernetes executor); everything else runs locally as child processes. A
 * git-clone step runs only when its URL passes SLIPWAY_GIT_ALLOW.
 */
export function withClusterExecutor(
  /** The one local executor (local-executor-factory.ts). */
  local: LocalExecutor,
  gateway: AgentGateway,
  target: EnvironmentTarget,
  deploy: DeployExecutor,
  /** SLIPWAY_GIT_ALLOW: what the git-clone task may fetch from (by default only public hosts) */
  gitPolicy: GitUrlPolicy = new GitUrlPolicy(),
  /** where a run is handed to Tekton as a whole instead (decision 037) */
  tekton?: TektonTarget,
) {
  const resolve = executorResolver({ local, gateway, target });
  const executorFor = (run: { id: string; workspaceId: string; environmentId: string | null }): Executor => {
    const base = guardGitClone(resolve(run), gitPolicy);
    return {
      containerPaths: base.containerPaths,
      // a task that outlived its server can only have run locally (a pod is not re-attached)
      recoverable: (ids) => local.recoverable(ids),
      release: (id) => local.release(id),
      runTask: (task, io, signal) => {
        if (!isInServerTask(task)) return base.runTask(task, io, signal);
        // Slipway carries these out itself, through the agent: no pod runs as the account
        if (task.serviceAccountName !== undefined)
          return Promise.resolve(
            refusedOutcome(
              task,
              io,
              `service account "${task.serviceAccountName}" cannot be honoured for task "${task.name}": Slipway carries out deploy and apply-yaml tasks itself, through the cluster's agent and its identity`,
            ),
          );
        if (task.podTemplate !== undefined)
          return Promise.resolve(
            refusedOutcome(
              task,
              io,
              `a pod template cannot be honoured for task "${task.name}": Slipway carries out deploy and apply-yaml tasks itself, through the cluster's agent, not in a pod`,
            ),
          );
        return deploy.runTask(run, task, io, signal);
      },
    };
  };
  const handOff = tekton ? tektonHandOff({ gateway, target: tekton }) : undefined;
  return { executor: local, engineOptions: { executorFor, ...(handOff ? { handOff } : {}) } };
}
