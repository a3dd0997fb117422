import type { AppDb } from '../../platform/database/database.js';
import type { Keys } from '../../platform/keys.js';
import type { AuthService } from '../auth/auth-service.js';
import { Throttle } from '../auth/throttle.js';
import { LdaptsDirectory, type Directory } from './ldap-directory.js';
import { ssoRoutes } from './sso-routes.js';
import { SsoService } from './sso-service.js';
import { SqlSsoStore } from './sso-store.js';

/** The one place Enterprise single sign-on is wired. */
export function ssoFeature(
  db: AppDb,
  keys: Keys,
  auth: AuthService,
  directory: Directory = new LdaptsDirectory(),
) {
  return ssoRoutes(new SsoService(new SqlSsoStore(db), directory, keys, new Throttle(db), auth));
}
