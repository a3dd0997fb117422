import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { OidcProviderConfig } from '../../platform/config.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { Keys } from '../../platform/keys.js';
import type { AuthService } from '../auth/auth-service.js';
import type { AuthStore } from '../auth/auth-store.js';
import { OpenIdClient, type OidcClient } from './oidc-client.js';
import { OidcHandoff } from './oidc-handoff.js';
import { oidcRoutes } from './oidc-routes.js';
import { OidcService } from './oidc-service.js';
import { SqlOidcStateStore } from './oidc-store.js';

export interface OidcFeatureDeps {
  db: AppDb;
  /** SLIPWAY_OIDC_* */
  providers: OidcProviderConfig[];
  /** the auth feature's service and store: who signs in, and their session */
  auth: AuthService;
  people: AuthStore;
  /** the audit feature's store */
  audit: AuditRecorder;
  publicUrl: string;
  keys: Keys;
  client?: OidcClient;
}

/** The one place OpenID Connect sign-in (G Suite, Azure) is wired. */
export function createOidcFeature(deps: OidcFeatureDeps): Feature {
  const states = new SqlOidcStateStore(deps.db);
  const service = new OidcService(
    deps.providers,
    deps.client ?? new OpenIdClient(),
    states,
    deps.people,
    deps.auth,
    deps.publicUrl,
  );
  const plugin = oidcRoutes(service, new OidcHandoff(states, deps.keys), deps.audit);
  return { name: 'oidc', plugin, exports: {} };
}
