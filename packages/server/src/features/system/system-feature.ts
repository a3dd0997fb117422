import type { Database } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { SqlInstanceStore } from './instance-store.js';
import { systemRoutes } from './system-routes.js';
import { SystemService } from './system-service.js';

export interface SystemFeatureDeps {
  database: Database;
}

/** The one place liveness, readiness and the instance's record are wired. */
export function createSystemFeature(deps: SystemFeatureDeps): Feature {
  const service = new SystemService(deps.database, new SqlInstanceStore(deps.database.db));
  return { name: 'system', plugin: systemRoutes(service), exports: {} };
}
