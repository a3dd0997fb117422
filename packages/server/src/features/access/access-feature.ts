import type { Database } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { accessRoutes } from './access-routes.js';
import { SqlAccessStore } from './access-store.js';

export interface AccessFeatureDeps {
  database: Database;
}

export interface AccessExports {
  /** for the access control on every route (app.ts) */
  store: SqlAccessStore;
}

/** The one place the caller's permissions route is wired; its store also backs the access check. */
export function createAccessFeature(deps: AccessFeatureDeps): Feature<AccessExports> {
  const store = new SqlAccessStore(deps.database);
  return { name: 'access', plugin: accessRoutes(store), exports: { store } };
}
