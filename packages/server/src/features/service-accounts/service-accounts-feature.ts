import type { AppDb } from '../../platform/database/database.js';
import { RolesStore } from '../roles/roles-store.js';
import { serviceAccountRoutes } from './service-accounts-routes.js';
import { ServiceAccountsService } from './service-accounts-service.js';
import { ServiceAccountsStore } from './service-accounts-store.js';

/** The one place service accounts are wired. */
export function serviceAccountsFeature(deps: { db: AppDb }) {
  return serviceAccountRoutes(
    new ServiceAccountsService(new ServiceAccountsStore(deps.db), new RolesStore(deps.db)),
  );
}
