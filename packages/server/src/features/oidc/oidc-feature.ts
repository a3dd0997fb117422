import type { ServerConfig } from '../../platform/config.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Keys } from '../../platform/keys.js';
import { SqlAuditStore } from '../audit/audit-store.js';
import type { AuthService } from '../auth/auth-service.js';
import { AuthStore } from '../auth/auth-store.js';
import { OpenIdClient, type OidcClient } from './oidc-client.js';
import { OidcHandoff } from './oidc-handoff.js';
import { oidcRoutes } from './oidc-routes.js';
import { OidcService } from './oidc-service.js';
import { SqlOidcStateStore } from './oidc-store.js';

/** The one place OpenID Connect sign-in (G Suite, Azure) is wired. */
export function oidcFeature(
  db: AppDb,
  config: ServerConfig,
  auth: AuthService,
  publicUrl: string,
  keys: Keys,
  client: OidcClient = new OpenIdClient(),
) {
  const states = new SqlOidcStateStore(db);
  const service = new OidcService(config.oidcProviders, client, states, new AuthStore(db), auth, publicUrl);
  return oidcRoutes(service, new OidcHandoff(states, keys), new SqlAuditStore(db));
}
