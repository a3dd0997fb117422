import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  oauthCallbackQuerySchema,
  oauthLoginUrlQuerySchema,
  oauthLoginUrlResponseSchema,
  oauthProvidersResponseSchema,
} from '@slipway/contracts';
import { PUBLIC } from '../../platform/auth/principal.js';
import type { AuditStore } from '../audit/audit-store.js';
import { requestContext } from '../auth/auth-routes.js';
import { CALLBACK_PATH, OidcSignInError, type OidcService } from './oidc-service.js';

const tags = ['auth'];
const ACTION = 'auth.oauth_login';

/** G Suite / Azure sign-in. The callback is a GET, so it writes its own audit record. */
export function oidcRoutes(service: OidcService, audit: AuditStore): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/auth/oauth/providers',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          summary: 'The OpenID Connect providers that are switched on',
          response: { 200: oauthProvidersResponseSchema },
        },
      },
      async () => service.enabled(),
    );
    app.get(
      '/api/auth/oauth/login_url',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          summary: "The provider's sign-in address (PKCE S256, state and nonce; valid 10 minutes)",
          querystring: oauthLoginUrlQuerySchema,
          response: { 200: oauthLoginUrlResponseSchema },
        },
      },
      async (request) => ({ url: await service.loginUrl(request.query.provider, request.query.intent) }),
    );
    app.get(
      CALLBACK_PATH,
      {
        config: { access: PUBLIC, auditAction: ACTION },
        schema: {
          tags,
          summary: 'Where the provider sends the browser back; redirects to /login with a token or an error',
          querystring: oauthCallbackQuerySchema,
        },
      },
      async (request, reply) => {
        const ctx = requestContext(request);
        const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const record = (
          outcome: 'success' | 'failure',
          fields: { actorId?: string; actorLabel?: string | null; detail: Record<string, unknown> },
        ) =>
          audit
            .append({
              organisationId: null,
              workspaceId: null,
              actorType: fields.actorId ? 'user' : 'anonymous',
              actorId: fields.actorId ?? null,
              actorLabel: fields.actorLabel ?? null,
              action: ACTION,
              targetType: fields.actorId ? 'user' : null,
              targetId: fields.actorId ?? null,
              ip: ctx.ip,
              userAgent: ctx.userAgent,
              fingerprint: ctx.fingerprint,
              outcome,
              statusCode: 302,
              detail: fields.detail,
            })
            .catch((err: unknown) => request.log.error({ err }, 'audit record could not be written'));
        try {
          const done = await service.callback(request.query, search, ctx);
          await record('success', {
            actorId: done.userId,
            actorLabel: done.email,
            detail: { provider: done.provider, created: done.created },
          });
          const params = new URLSearchParams({
            token: done.login.token,
            projectId: done.login.projectId ?? '',
          });
          return reply.header('cache-control', 'no-store').redirect(`/login?${params}`, 302);
        } catch (err) {
          const known = err instanceof OidcSignInError;
          if (!known) request.log.error({ err }, 'OpenID sign-in failed');
          await record('failure', {
            actorLabel: known ? err.email : null,
            detail: { reason: known ? err.reason : 'unexpected error' },
          });
          const message = known ? err.message : 'Sign-in failed';
          return reply
            .header('cache-control', 'no-store')
            .redirect(`/login?${new URLSearchParams({ error: message })}`, 302);
        }
      },
    );
  };
}
