import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { roleRoutes } from './roles-routes.js';
import { RolesService } from './roles-service.js';
import { RolesStore } from './roles-store.js';

export interface RolesFeatureDeps {
  db: AppDb;
}

export interface RolesExports {
  /** the organisation's roles: for members, invites and service accounts */
  store: RolesStore;
}

/** The one place roles are wired. */
export function createRolesFeature(deps: RolesFeatureDeps): Feature<RolesExports> {
  const store = new RolesStore(deps.db);
  return { name: 'roles', plugin: roleRoutes(new RolesService(store)), exports: { store } };
}
