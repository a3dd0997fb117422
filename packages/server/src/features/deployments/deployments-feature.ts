import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { WorkspaceClaimsReaper } from '../pipelines/executor/kubernetes-executor-claims.js';
import type { EnvironmentTarget } from '../pipelines/executor/kubernetes-executor-resolver.js';
import { DeployExecutor } from './deploy-executor.js';
import { DeploymentsStore } from './deployments-store.js';
import { HealthTracker } from './health-tracker.js';

/** Ended runs' workspace claims are removed this often. */
export const CLAIMS_REAP_INTERVAL_MS = 5 * 60_000;

/** Applications' health is read again this often (default 30 s). */
export const HEALTH_CHECK_INTERVAL_MS = 30_000;

export interface DeploymentsFeatureDeps {
  db: AppDb;
  /** the agent gateway feature's gateway */
  gateway: AgentGateway;
  /** the environments feature's target: an environment's cluster and namespace */
  target: EnvironmentTarget;
  healthIntervalMs?: number;
}

export interface DeploymentsExports {
  store: DeploymentsStore;
  /** for the run engine: apply-yaml and deploy tasks */
  executor: DeployExecutor;
  tracker: HealthTracker;
  reaper: WorkspaceClaimsReaper;
}

/**
 * The one place deployments are wired: the apply-yaml/deploy executor, the health tracker and the
 * removal of ended runs' workspace claims. It serves no routes; its plugin starts and stops the
 * tracker and the reaper.
 */
export function createDeploymentsFeature(deps: DeploymentsFeatureDeps): Feature<DeploymentsExports> {
  const store = new DeploymentsStore(deps.db);
  const executor = new DeployExecutor({ gateway: deps.gateway, target: deps.target, deployments: store });
  let log = { error: (_o: object, _m: string) => undefined as void };
  const tracker = new HealthTracker(store, deps.gateway, deps.healthIntervalMs ?? HEALTH_CHECK_INTERVAL_MS, {
    error: (o, m) => log.error(o, m),
  });
  const reaper = new WorkspaceClaimsReaper(deps.db, deps.gateway, CLAIMS_REAP_INTERVAL_MS, {
    error: (o, m) => log.error(o, m),
  });
  const plugin: FastifyPluginAsync = async (app) => {
    log = app.log;
    app.addHook('onReady', async () => {
      tracker.start();
      reaper.start();
    });
    app.addHook('onClose', async () => {
      tracker.stop();
      reaper.stop();
    });
  };
  return { name: 'deployments', plugin, exports: { store, executor, tracker, reaper } };
}
