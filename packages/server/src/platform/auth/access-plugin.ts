import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { HEADERS, MESSAGES } from '@slipway/contracts';
import { AppError, InputError, NotAllowedError, NotAuthenticatedError, NotFoundError } from '../errors.js';
import { adoptWebSocketCredentials, headerValue, workspaceHeader } from '../headers.js';
import { hashToken } from '../keys.js';
import type { AccessStore, WorkspaceStanding } from './access-store-type.js';
import { holds, canSeeWorkspace, organisationGrants, workspaceGrants } from './grants.js';
import type { AccessRule, Principal } from './principal.js';
import { StandingCache } from './standing-cache.js';
import { SERVICE_ACCOUNT_TOKEN_PREFIX, tokenFromHeader, type SessionTokens } from './tokens.js';

/** Routes that plugins register (docs UI, static files) and that need no declaration. */
export function isUndeclaredAllowed(url: string): boolean {
  return !url.startsWith('/api') || url === '/api/docs' || url.startsWith('/api/docs/');
}

/** The access rule of a route: its declaration, or public for plugin routes outside the API. */
export function accessRuleOf(
  url: string,
  config: { access?: AccessRule } | undefined,
): AccessRule | undefined {
  return config?.access ?? (isUndeclaredAllowed(url) ? { scope: 'public' } : undefined);
}

const TOUCH_EVERY_MS = 60_000;

/**
 * Records that a cached service account or session was used, when it never was or last was over
 * TOUCH_EVERY_MS ago: in the cached row (so the next call within that time writes nothing) and
 * through `write`.
 */
async function touch<K extends string>(
  row: { id: string } & Record<K, Date | null>,
  key: K,
  now: number,
  write: (id: string) => Promise<unknown>,
) {
  const last = row[key];
  if (last && now - last.getTime() <= TOUCH_EVERY_MS) return;
  (row as Record<K, Date | null>)[key] = new Date(now);
  await write(row.id);
}
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Caller {
  principal: Principal;
  organisationRole: string | null;
  standing: WorkspaceStanding | null;
}

export class Authenticator {
  constructor(
    private readonly store: AccessStore,
    private readonly tokens: SessionTokens,
    private readonly cache = new StandingCache(),
  ) {}

  /** Something that decides access may have changed (this process handled a mutation). */
  forget() {
    this.cache.clear();
  }

  /**
   * The principal behind the request's token (null without one; 401 for a bad one), with the
   * caller's organisation role and, when asked, their standing in a workspace: for a person all
   * of it comes from one database read.
   */
  async authenticate(request: FastifyRequest, workspaceId: string | null = null): Promise<Caller | null> {
    const token = tokenFromHeader(headerValue(request, HEADERS.authorization) ?? undefined);
    if (!token) return null;
    const now = Date.now();
    if (token.startsWith(SERVICE_ACCOUNT_TOKEN_PREFIX)) {
      const hash = hashToken(token);
      const sa = await this.cache.get(`sa\0${hash}`, () => this.store.findServiceAccountByTokenHash(hash));
      if (!sa || sa.revokedAt || sa.expiresAt.getTime() <= now) {
        throw new NotAuthenticatedError('The service account token is not valid, has expired or was revoked');
      }
      await touch(sa, 'lastUsedAt', now, (id) => this.store.touchServiceAccount(id));
      return {
        principal: {
          kind: 'service_account',
          serviceAccountId: sa.id,
          organisationId: sa.organisationId,
          name: sa.name,
        },
        organisationRole: null,
        standing: workspaceId
          ? await this.cache.get(`sa\0${hash}\0${workspaceId}`, () =>
              this.store.serviceAccountStanding(sa.id, workspaceId),
            )
          : null,
      };
    }
    const claims = await this.tokens.verify(token);
    const found = claims
      ? await this.cache.get(`s\0${claims.sessionId}\0${workspaceId ?? ''}`, () =>
          this.store.findSessionWithStanding(claims.sessionId, workspaceId),
        )
      : null;
    const session = found?.session;
    if (
      !session ||
      session.userId !== claims?.userId ||
      session.revokedAt ||
      session.expiresAt.getTime() <= now
    ) {
      throw new NotAuthenticatedError('Your session has ended; sign in again');
    }
    if (session.fingerprint && headerValue(request, HEADERS.fingerprint) !== session.fingerprint) {
      throw new NotAuthenticatedError('Your session has ended; sign in again');
    }
    await touch(session, 'lastSeenAt', now, (id) => this.store.touchSession(id));
    return {
      principal: {
        kind: 'user',
        userId: session.userId,
        sessionId: session.id,
        organisationId: session.organisationId,
        email: session.email,
        origin: claims.origin,
      },
      organisationRole: found.organisationRole,
      standing: found.standing,
    };
  }
}

/**
 * The one place access is enforced. Every API route declares `config.access`; a route that does
 * not is refused (and the route-table test fails). Workspace-scoped routes name their workspace
 * in x-workspace-id: one the caller cannot see answers 404, a missing permission 403.
 */
export function registerAccessControl(app: FastifyInstance, store: AccessStore, tokens: SessionTokens) {
  const authenticator = new Authenticator(store, tokens);
  app.decorateRequest('principal', null);
  app.decorateRequest('workspaceId', null);
  app.decorateRequest('audit', null as never);
  app.decorateRequest('grants', null);

  // A mutation may change who may do what (logout, roles, members, service accounts): the cached
  // standings go before its answer leaves, so the caller's next request sees the change.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!SAFE_METHODS.has(request.method)) authenticator.forget();
    return payload;
  });

  app.addHook('onRequest', async (request) => {
    request.audit = {};
    adoptWebSocketCredentials(request);
    const url = request.routeOptions.url;
    if (url === undefined) return; // no route: the not-found handler answers
    const rule = accessRuleOf(url, request.routeOptions.config as { access?: AccessRule });
    if (!rule) throw new AppError(500, `Route ${request.method} ${url} declares no access rule`);
    if (rule.scope === 'public') {
      // A token on a public route is used when good and ignored when not.
      request.principal = (await authenticator.authenticate(request).catch(() => null))?.principal ?? null;
      return;
    }
    const workspaceId = rule.scope === 'workspace' ? workspaceHeader(request) : null;
    const caller = await authenticator.authenticate(request, workspaceId);
    if (!caller) throw new NotAuthenticatedError();
    const principal = caller.principal;
    request.principal = principal;
    if (rule.scope === 'authenticated') return;
    if (rule.scope === 'organisation') {
      request.grants = organisationGrants(caller.organisationRole);
      if (!holds(request.grants, rule.permission)) throw new NotAllowedError(MESSAGES.actionNotAllowed);
      return;
    }
    if (!workspaceId) throw new InputError(`${HEADERS.workspace}: the workspace is required`);
    const standing = caller.standing;
    if (!standing || !canSeeWorkspace(standing, principal.organisationId)) {
      throw new NotFoundError('Workspace not found');
    }
    request.workspaceId = workspaceId;
    request.grants = workspaceGrants(standing);
    if (!holds(request.grants, rule.permission)) throw new NotAllowedError(MESSAGES.actionNotAllowed);
  });
}

/** Every route the app registered, for the route-table test and the OpenAPI security notes. */
export function collectRoutes(app: FastifyInstance): RouteOptions[] {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  return routes;
}
