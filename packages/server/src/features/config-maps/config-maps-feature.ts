import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { ConfigMapReader } from './config-map-reader.js';
import { configMapRoutes } from './config-maps-routes.js';
import { ConfigMapsService } from './config-maps-service.js';
import { SqlConfigMapsStore } from './config-maps-store.js';

export interface ConfigMapsFeatureDeps {
  db: AppDb;
}

export interface ConfigMapsExports {
  /** for the run engine: config map data for env, envFrom and workspace files */
  reader: ConfigMapReader;
}

/** The one place config maps are wired. */
export function createConfigMapsFeature(deps: ConfigMapsFeatureDeps): Feature<ConfigMapsExports> {
  const store = new SqlConfigMapsStore(deps.db);
  const plugin = configMapRoutes(new ConfigMapsService(store));
  return { name: 'config-maps', plugin, exports: { reader: new ConfigMapReader(store) } };
}
