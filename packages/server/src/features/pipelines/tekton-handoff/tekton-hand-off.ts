import type { AgentGateway } from '../../agent-gateway/agent-gateway.js';
import type { RunHandOff } from '../../pipeline-runs/run-hand-off.js';
import { inServerTasks } from './pipeline-run-object.js';
import { TektonRunDriver } from './tekton-run-driver.js';

/**
 * Where a run that targets an environment would be handed to Tekton: its cluster and namespace,
 * when the environment runs its tasks in the cluster (`taskRunner: cluster`) and the cluster's
 * agent reports Tekton Pipelines among its add-ons; null otherwise.
 */
export type TektonTarget = (
  environmentId: string,
) => Promise<{ clusterId: string; namespace: string } | null>;

/**
 * The engine's hand-off (decision 037): a run whose environment's cluster has Tekton is handed to
 * it as a PipelineRun, unless its pipeline has tasks Slipway carries out itself (deploy,
 * apply-yaml), which Slipway's engine drives as before. Decided when the run is claimed, from
 * what the database holds (so a resumed run decides the same).
 */
export function tektonHandOff(options: {
  gateway: AgentGateway;
  target: TektonTarget;
  graceMs?: number;
  retryMs?: number;
}): RunHandOff {
  return async (run, deps) => {
    if (!run.environmentId) return null;
    const target = await options.target(run.environmentId);
    if (!target) return null;
    let definition;
    try {
      definition = await deps.definitions.load(run.workspaceId, run.pipelineId, run.pipelineVersion);
    } catch {
      return null; // the engine's driver reports the invalid definition
    }
    if (inServerTasks(definition).length > 0) return null;
    return new TektonRunDriver(deps, run, definition, {
      gateway: options.gateway,
      clusterId: target.clusterId,
      namespace: target.namespace,
      ...(options.graceMs !== undefined ? { graceMs: options.graceMs } : {}),
      ...(options.retryMs !== undefined ? { retryMs: options.retryMs } : {}),
    });
  };
}
