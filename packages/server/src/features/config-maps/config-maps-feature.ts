import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import { ConfigMapReader } from './config-map-reader.js';
import { configMapRoutes } from './config-maps-routes.js';
import { ConfigMapsService } from './config-maps-service.js';
import { ConfigMapsStore } from './config-maps-store.js';

export interface ConfigMapsFeature {
  /** for the run engine: config map data for env, envFrom and workspace files */
  reader: ConfigMapReader;
  plugin: FastifyPluginAsync;
}

/** The one place config maps are wired. */
export function createConfigMapsFeature(deps: { db: AppDb }): ConfigMapsFeature {
  const store = new ConfigMapsStore(deps.db);
  const service = new ConfigMapsService(store);
  const plugin: FastifyPluginAsync = async (app) => {
    await app.register(configMapRoutes(service));
  };
  return { reader: new ConfigMapReader(store), plugin };
}
