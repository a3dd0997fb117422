import type { AppDb } from '../../platform/database/database.js';
import type { AuthService } from '../auth/auth-service.js';
import { AuthStore } from '../auth/auth-store.js';
import { organisationRoutes } from './organisations-routes.js';
import { OrganisationsService } from './organisations-service.js';
import { OrganisationsStore } from './organisations-store.js';

/** The one place organisations and workspaces are wired. */
export function organisationsFeature(deps: { db: AppDb; auth: AuthService }) {
  return organisationRoutes(
    new OrganisationsService(new OrganisationsStore(deps.db), new AuthStore(deps.db), deps.auth),
  );
}
