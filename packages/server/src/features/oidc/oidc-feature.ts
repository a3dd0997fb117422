import type { ServerConfig } from '../../platform/config.js';
import type { AppDb } from '../../platform/database/database.js';
import { SqlAuditStore } from '../audit/audit-store.js';
import type { AuthService } from '../auth/auth-service.js';
import { AuthStore } from '../auth/auth-store.js';
import { OpenIdClient, type OidcClient } from './oidc-client.js';
import { oidcRoutes } from './oidc-routes.js';
import { OidcService } from './oidc-service.js';
import { SqlOidcStateStore } from './oidc-store.js';

/** The one place OpenID Connect sign-in (G Suite, Azure) is wired. */
export function oidcFeature(
  db: AppDb,
  config: ServerConfig,
  auth: AuthService,
  publicUrl: string,
  client: OidcClient = new OpenIdClient(),
) {
  const service = new OidcService(
    config.oidcProviders,
    client,
    new SqlOidcStateStore(db),
    new AuthStore(db),
    auth,
    publicUrl,
  );
  return oidcRoutes(service, new SqlAuditStore(db));
}
