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
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { OidcHandoff } from './oidc-handoff.js';
import { CALLBACK_PATH, OidcSignInError, type OidcService } from './oidc-service.js';

const tags = ['auth'];
const ACTION = 'auth.oauth_login';

/** G Suite / Azure sign-in. The callback is a GET, so it writes its own audit record. */
export function oidcRoutes(
  service: OidcService,
  handoff: OidcHandoff,
  audit: AuditRecorder,
): FastifyPluginAsyncZod {
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
          summary:
            'Where the provider sends the browser back; redirects to /login#oauth=<one-time code> or /login?error=',
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
    );
    app.post(
      '/api/auth/oauth/exchange',
      {
        config: { access: PUBLIC, auditAction: 'auth.oauth_exchange' },
        schema: {
          tags,
          summary: "Exchange the callback's one-time code for the session: { token, projectId }",
          body: oauthExchangeRequestSchema,
          response: { 200: loginResponseSchema },
        },
      },
      async (request, reply) => {
        const login = await handoff.redeem(request.body.code);
        return reply.header('cache-control', 'no-store').send(login);
      },
    );
  };
}
