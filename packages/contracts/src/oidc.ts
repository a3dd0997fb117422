import { z } from 'zod';

// ── OpenID Connect (G Suite, Azure) ─────────────────────────────────────────────────────────

export const OAUTH_PROVIDER_IDS = ['google', 'azure'] as const;
export const oauthProvidersResponseSchema = z.array(
  z.object({ id: z.enum(OAUTH_PROVIDER_IDS), name: z.string() }),
);
export const oauthLoginUrlQuerySchema = z.object({
  provider: z.enum(OAUTH_PROVIDER_IDS),
  intent: z.enum(['login', 'signup']).default('login'),
});
export const oauthLoginUrlResponseSchema = z.object({ url: z.string() });
export const oauthCallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

/**
 * The callback sends the browser to `/login#oauth=<one-time code>` (never the session token in a
 * URL); the web app exchanges the code once, within a minute, for `{ token, projectId }`.
 */
export const OAUTH_HANDOFF_FRAGMENT = 'oauth';
export const oauthExchangeRequestSchema = z.object({
  code: z.string().trim().min(1, 'Code required').max(200),
});
export const OAUTH_HANDOFF_INVALID_MESSAGE = 'This sign-in has expired or was already used; sign in again';
