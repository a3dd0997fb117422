import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { ClustersStore } from '../clusters/clusters-store-type.js';
import type { EnvironmentTarget } from '../pipelines/executor/kubernetes-executor-resolver.js';
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
  return { name: 'environments', plugin, exports: { service, store, target } };
}
