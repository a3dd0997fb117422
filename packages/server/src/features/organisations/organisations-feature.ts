import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { AuthService } from '../auth/auth-service.js';
import type { AuthStore } from '../auth/auth-store.js';
import { organisationRoutes } from './organisations-routes.js';
import { OrganisationsService } from './organisations-service.js';
import { SqlOrganisationsStore } from './organisations-store.js';

export interface OrganisationsFeatureDeps {
  db: AppDb;
  /** the auth feature's service: a session in the organisation switched to or made */
  auth: AuthService;
  /** the auth feature's store: the organisations a person belongs to */
  people: AuthStore;
}

/** The one place organisations and workspaces are wired. */
export function createOrganisationsFeature(deps: OrganisationsFeatureDeps): Feature {
  const service = new OrganisationsService(new SqlOrganisationsStore(deps.db), deps.people, deps.auth);
  return { name: 'organisations', plugin: organisationRoutes(service), exports: {} };
}
