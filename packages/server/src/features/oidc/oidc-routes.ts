import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginResponseSchema,
  OAUTH_HANDOFF_FRAGMENT,
  oauthCallbackQuerySchema,
  oauthExchangeRequestSchema,
  oauthLoginUrlQuerySchema,
  oauthLoginUrlResponseSchema,
  oauthProvidersResponseSchema,
} from '@slipway/contracts';
import { PUBLIC } from '../../platform/auth/principal.js';
import { requestContext } from '../../platform/request-context.js';
import { routes } from '../../platform/routes.js';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { OidcHandoff } from './oidc-handoff.js';
import { CALLBACK_PATH, OidcSignInError, type OidcService } from './oidc-service.js';

const ACTION = 'auth.oauth_login';

/** G Suite / Azure sign-in. The callback is a GET, so it writes its own audit record. */
export function oidcRoutes(
  service: OidcService,
  handoff: OidcHandoff,
  audit: AuditRecorder,
): FastifyPluginAsyncZod {
  return async (app) => {
    const oauth = routes(app, ['auth']);
    oauth.get('/api/auth/oauth/providers', {
      summary: 'The OpenID Connect providers that are switched on',
      access: PUBLIC,
      response: oauthProvidersResponseSchema,
      handler: async () => service.enabled(),
    });
    oauth.get('/api/auth/oauth/login_url', {
      summary: "The provider's sign-in address (PKCE S256, state and nonce; valid 10 minutes)",
      access: PUBLIC,
      querystring: oauthLoginUrlQuerySchema,
      response: oauthLoginUrlResponseSchema,
      handler: async (request) => ({
        url: await service.loginUrl(request.query.provider, request.query.intent),
      }),
    });
    oauth.get(CALLBACK_PATH, {
      summary:
        'Where the provider sends the browser back; redirects to /login#oauth=<one-time code> or /login?error=',
      access: PUBLIC,
      auditAction: ACTION,
      querystring: oauthCallbackQuerySchema,
      handler: async (request, reply) => {
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
          // The token never travels in a URL: a one-time code in the fragment (which the browser
          // keeps to itself) is exchanged by the app through POST /api/auth/oauth/exchange.
          const code = await handoff.issue(done.login);
          const fragment = new URLSearchParams({ [OAUTH_HANDOFF_FRAGMENT]: code });
          return reply
            .header('cache-control', 'no-store')
            .header('referrer-policy', 'no-referrer')
            .redirect(`/login#${fragment}`, 302);
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
    });
    oauth.post('/api/auth/oauth/exchange', {
      summary: "Exchange the callback's one-time code for the session: { token, projectId }",
      access: PUBLIC,
      auditAction: 'auth.oauth_exchange',
      body: oauthExchangeRequestSchema,
      response: loginResponseSchema,
      handler: async (request, reply) => {
        const login = await handoff.redeem(request.body.code);
        return reply.header('cache-control', 'no-store').send(login);
      },
    });
  };
}
