import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import type { LoginResponse } from '@slipway/contracts';
import type { OidcProviderConfig } from '../../platform/config.js';
import { InputError } from '../../platform/errors.js';
import type { RequestContext } from '../../platform/request-context.js';
import type { AuthStore, UserRow } from '../auth/auth-store.js';
import type { IdentityClaims, OidcClient } from './oidc-client.js';
import type { OidcStateStore } from './oidc-store.js';

export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
export const CALLBACK_PATH = '/api/auth/oauth/callback';

/** A sign-in that did not work; `message` is short enough for /login?error=. */
export class OidcSignInError extends Error {
  constructor(
    message: string,
    readonly reason: string = message,
    readonly email: string | null = null,
  ) {
    super(message);
  }
}

export interface SessionStarter {
  startSession(user: UserRow, ctx: RequestContext): Promise<LoginResponse>;
}

export interface OidcSignIn {
  login: LoginResponse;
  userId: string;
  email: string;
  provider: string;
  created: boolean;
}

function namesOf(c: IdentityClaims, email: string): { firstName: string; lastName: string } {
  const [first, ...rest] = (c.name ?? '').split(/\s+/).filter(Boolean);
  return {
    firstName: c.givenName ?? first ?? email.split('@')[0]!,
    lastName: c.familyName ?? rest.join(' '),
  };
}

/** G Suite and Azure sign-up and sign-in through OpenID Connect (code flow, PKCE, state, nonce). */
export class OidcService {
  constructor(
    private readonly providers: OidcProviderConfig[],
    private readonly client: OidcClient,
    private readonly states: OidcStateStore,
    private readonly users: AuthStore,
    private readonly sessions: SessionStarter,
    private readonly publicUrl: string,
  ) {}

  get redirectUri(): string {
    return `${this.publicUrl}${CALLBACK_PATH}`;
  }

  enabled(): Array<{ id: OidcProviderConfig['id']; name: string }> {
    return this.providers.map((p) => ({ id: p.id, name: p.name }));
  }

  private provider(id: string): OidcProviderConfig {
    const p = this.providers.find((x) => x.id === id);
    if (!p)
      throw new InputError(`Sign-in with ${id} is not enabled`, [
        { path: 'querystring.provider', message: 'is not enabled' },
      ]);
    return p;
  }

  async loginUrl(providerId: string, intent: 'login' | 'signup'): Promise<string> {
    const p = this.provider(providerId);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const pending = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      provider: p.id,
      intent,
      expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_MS),
    };
    const url = await this.client.authorizationUrl(p, {
      redirectUri: this.redirectUri,
      state: pending.state,
      nonce: pending.nonce,
      codeChallenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    });
    await this.states.save(pending);
    return url;
  }

  /** The provider's answer at the callback: `search` is the callback URL's query string. */
  async callback(
    query: { state?: string | undefined; error?: string | undefined },
    search: string,
    ctx: RequestContext,
  ): Promise<OidcSignIn> {
    if (query.error) {
      throw new OidcSignInError(
        query.error === 'access_denied' ? 'Sign-in was cancelled' : 'Sign-in failed',
        `provider error: ${query.error}`,
      );
    }
    const pending = query.state ? await this.states.consume(query.state) : null;
    if (!pending)
      throw new OidcSignInError('Sign-in expired, please try again', 'unknown, used or expired state');
    const p = this.provider(pending.provider);
    let claims: IdentityClaims;
    try {
      claims = await this.client.exchange(p, new URL(`${this.redirectUri}${search}`), pending);
    } catch (err) {
      throw new OidcSignInError('Sign-in failed', `code exchange: ${(err as Error).message}`);
    }
    const email = claims.email;
    if (!email) throw new OidcSignInError('The provider did not share your e-mail address', 'no email claim');
    if (claims.emailVerified === false) {
      throw new OidcSignInError(
        'Your e-mail address is not verified with the provider',
        'email_verified is false',
        email,
      );
    }

    let user = await this.users.userByEmail(email);
    let created = false;
    if (!user) {
      const userId = randomUUID();
      const names = namesOf(claims, email);
      await this.users.createUserWithOrganisation({
        userId,
        email,
        ...names,
        passwordHash: null,
        emailVerified: true,
        organisationId: randomUUID(),
        organisationName: `${names.firstName}'s organisation`,
        workspaceId: randomUUID(),
      });
      user = (await this.users.userById(userId))!;
      created = true;
    } else if (!user.emailVerifiedAt) {
      await this.states.verifyByProvider(user.id);
      user = { ...user, emailVerifiedAt: new Date(), passwordHash: null };
    }
    const login = await this.sessions.startSession(user, ctx);
    return { login, userId: user.id, email, provider: p.id, created };
  }
}
