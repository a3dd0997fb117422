import type { SessionTokens } from '../../platform/auth/tokens.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { Mailer } from '../../platform/mail.js';
import { authRoutes } from './auth-routes.js';
import { AuthService } from './auth-service.js';
import { AuthStore } from './auth-store.js';
import { Throttle } from './throttle.js';

export interface AuthFeatureDeps {
  db: AppDb;
  tokens: SessionTokens;
  mailer: Mailer;
  publicUrl: string;
}

export interface AuthExports {
  /** sessions, sign-up and sign-in: for organisations, members, SSO and OpenID Connect */
  service: AuthService;
  /** users and their sessions: for organisations, invites and OpenID Connect */
  store: AuthStore;
  /** failed attempts and their delays: for invites and SSO */
  throttle: Throttle;
}

/** The one place sign-up, sign-in and sessions are wired. */
export function createAuthFeature(deps: AuthFeatureDeps): Feature<AuthExports> {
  const store = new AuthStore(deps.db);
  const throttle = new Throttle(deps.db);
  const service = new AuthService(store, deps.tokens, deps.mailer, throttle, deps.publicUrl);
  return { name: 'auth', plugin: authRoutes(service), exports: { service, store, throttle } };
}
