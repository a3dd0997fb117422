import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { ClustersStore } from '../clusters/clusters-store.js';
import type { EnvironmentTarget } from '../pipelines/executor/kubernetes-executor-resolver.js';
import { environmentRoutes } from './environments-routes.js';
import { EnvironmentsService } from './environments-service.js';
import { EnvironmentsStore } from './environments-store.js';

export interface EnvironmentsFeature {
  service: EnvironmentsService;
  store: EnvironmentsStore;
  /** where a run that targets the environment runs: its cluster and namespace, if bound */
  target: EnvironmentTarget;
  plugin: FastifyPluginAsync;
}

/** The one place environments are wired. */
export function createEnvironmentsFeature(deps: { db: AppDb; clusters: ClustersStore }): EnvironmentsFeature {
  const store = new EnvironmentsStore(deps.db);
  const service = new EnvironmentsService(store, deps.clusters);
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(environmentRoutes(service));
  };
  const target: EnvironmentTarget = async (environmentId) => {
    const env = await store.byId(environmentId);
    return env?.clusterId && env.namespace ? { clusterId: env.clusterId, namespace: env.namespace } : null;
  };
  return { service, store, target, plugin };
}
