import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { Keys } from '../../platform/keys.js';
import type { AuthService } from '../auth/auth-service.js';
import type { Throttle } from '../auth/throttle.js';
import { LdaptsDirectory, type Directory } from './ldap-directory.js';
import { ssoRoutes } from './sso-routes.js';
import { SsoService } from './sso-service.js';
import { SqlSsoStore } from './sso-store.js';

export interface SsoFeatureDeps {
  db: AppDb;
  keys: Keys;
  /** the auth feature's service and throttle: sessions, and failed LDAP sign-ins slow down */
  auth: AuthService;
  throttle: Throttle;
  /** the LDAP client (default ldapts) */
  directory?: Directory;
}

/** The one place Enterprise single sign-on is wired. */
export function createSsoFeature(deps: SsoFeatureDeps): Feature {
  const service = new SsoService(
    new SqlSsoStore(deps.db),
    deps.directory ?? new LdaptsDirectory(),
    deps.keys,
    deps.throttle,
    deps.auth,
  );
  return { name: 'sso', plugin: ssoRoutes(service), exports: {} };
}
