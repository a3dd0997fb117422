import type { AppDb } from '../../platform/database/database.js';
import { roleRoutes } from './roles-routes.js';
import { RolesService } from './roles-service.js';
import { RolesStore } from './roles-store.js';

/** The one place roles are wired. */
export function rolesFeature(deps: { db: AppDb }) {
  return roleRoutes(new RolesService(new RolesStore(deps.db)));
}
