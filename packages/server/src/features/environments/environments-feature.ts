import { CLUSTER_ADD_ONS } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { ClustersStore } from '../clusters/clusters-store-type.js';
import type { EnvironmentTarget } from '../pipelines/executor/kubernetes-executor-resolver.js';
import type { TektonTarget } from '../pipelines/tekton-handoff/tekton-hand-off.js';
import { environmentRoutes } from './environments-routes.js';
import { EnvironmentsService } from './environments-service.js';
import { SqlEnvironmentsStore } from './environments-store.js';

export interface EnvironmentsFeatureDeps {
  db: AppDb;
  /** the clusters feature's store: an environment binds to one of the organisation's clusters */
  clusters: ClustersStore;
}

export interface EnvironmentsExports {
  service: EnvironmentsService;
  store: SqlEnvironmentsStore;
  /** where a run that targets the environment runs: its cluster and namespace, if bound */
  target: EnvironmentTarget;
  /** where a run that targets the environment is handed to Tekton (decision 037), if it is */
  tektonTarget: TektonTarget;
}

/** The one place environments are wired. */
export function createEnvironmentsFeature(deps: EnvironmentsFeatureDeps): Feature<EnvironmentsExports> {
  const store = new SqlEnvironmentsStore(deps.db);
  const service = new EnvironmentsService(store, deps.clusters);
  const plugin = environmentRoutes(service);
  const target: EnvironmentTarget = async (environmentId) => {
    const env = await store.byId(environmentId);
    return env?.clusterId && env.namespace
      ? { clusterId: env.clusterId, namespace: env.namespace, tasksOnServer: env.taskRunner === 'server' }
      : null;
  };
  // the cluster's agent reported Tekton Pipelines (installed_resources holds add-on ids)
  const tektonId = CLUSTER_ADD_ONS.find((a) => a.key === 'tekton')!.id;
  const tektonTarget: TektonTarget = async (environmentId) => {
    const env = await store.byId(environmentId);
    if (!env?.clusterId || !env.namespace || env.taskRunner !== 'cluster') return null;
    const installed = (await deps.clusters.byId(env.clusterId))?.installedResources;
    const tekton = Array.isArray(installed) && (installed.includes(tektonId) || installed.includes('tekton'));
    return tekton ? { clusterId: env.clusterId, namespace: env.namespace } : null;
  };
  return { name: 'environments', plugin, exports: { service, store, target, tektonTarget } };
}
