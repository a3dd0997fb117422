import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { RoleLookup } from '../roles/roles-store.js';
import { serviceAccountRoutes } from './service-accounts-routes.js';
import { ServiceAccountsService } from './service-accounts-service.js';
import { SqlServiceAccountsStore } from './service-accounts-store.js';

export interface ServiceAccountsFeatureDeps {
  db: AppDb;
  /** the roles feature's store */
  roles: RoleLookup;
}

export interface ServiceAccountsExports {
  /** quick setup makes the service account its pipeline pushes images with */
  service: ServiceAccountsService;
}

/** The one place service accounts are wired. */
export function createServiceAccountsFeature(
  deps: ServiceAccountsFeatureDeps,
): Feature<ServiceAccountsExports> {
  const service = new ServiceAccountsService(new SqlServiceAccountsStore(deps.db), deps.roles);
  return { name: 'service-accounts', plugin: serviceAccountRoutes(service), exports: { service } };
}
