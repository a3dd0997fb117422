import type { PermissionGrant } from '@slipway/contracts';
import { hashToken } from '../keys.js';
import type { AccessStore, ServiceAccountRecord } from './access-store-type.js';
import { canSeeWorkspace, workspaceGrants } from './grants.js';
import { SERVICE_ACCOUNT_TOKEN_PREFIX } from './tokens.js';

/** A service account token's holder in one workspace, or why it is refused (401 bad token, 404 no such workspace for it). */
export type ServiceAccountCaller =
  { ok: true; account: ServiceAccountRecord; grants: PermissionGrant[] } | { ok: false; status: 401 | 404 };

/** Whether `token` looks like a service account token (its check is `serviceAccountIn`). */
export function isServiceAccountToken(token: string): boolean {
  return token.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX);
}

/**
 * For the protocols that carry a token outside the API (git over HTTP, the registry): the service
 * account behind `token` and its grants in `workspaceId`, as the access check would find them.
 */
export async function serviceAccountIn(
  access: AccessStore,
  token: string,
  workspaceId: string,
  now = Date.now(),
): Promise<ServiceAccountCaller> {
  const account = await validServiceAccount(access, token, now);
  if (!account) return { ok: false, status: 401 };
  const standing = await access.serviceAccountStanding(account.id, workspaceId);
  if (!standing || !canSeeWorkspace(standing, account.organisationId)) return { ok: false, status: 404 };
  return { ok: true, account, grants: workspaceGrants(standing) };
}

/** The token a client of such a protocol sends: the password of Basic authentication, or a Bearer token. */
export function credentialToken(header: string | undefined): string | null {
  if (!header) return null;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!value) return null;
  if (/^bearer$/i.test(scheme!)) return value;
  if (!/^basic$/i.test(scheme!)) return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 ? decoded.slice(colon + 1) || null : null;
}

/** The service account behind `token` when it is valid now (for a check that names no workspace). */
export async function validServiceAccount(
  access: AccessStore,
  token: string,
  now = Date.now(),
): Promise<ServiceAccountRecord | null> {
  const account = await access.findServiceAccountByTokenHash(hashToken(token));
  return account && !account.revokedAt && account.expiresAt.getTime() > now ? account : null;
}
