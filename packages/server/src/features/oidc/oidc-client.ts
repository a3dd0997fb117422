import * as oidc from 'openid-client';
import type { OidcProviderConfig } from '../../platform/config.js';

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

export interface IdentityClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean | null;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

/** What sign-in needs of an OpenID provider; OpenIdClient is the real one (openid-client v6). */
export interface OidcClient {
  authorizationUrl(provider: OidcProviderConfig, request: AuthorizationRequest): Promise<string>;
  /** Exchanges the code from the callback URL, checking state, nonce, PKCE and the ID token. */
  exchange(
    provider: OidcProviderConfig,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<IdentityClaims>;
}

/** Plain http is refused by openid-client unless the issuer is this machine (tests, development). */
export function isLoopbackHttp(issuer: string): boolean {
  const u = new URL(issuer);
  return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}

function pick(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * The real client. Azure's multi-tenant issuers (`…/common/v2.0`, `…/organizations/v2.0`) publish
 * the issuer template `https://login.microsoftonline.com/{tenantid}/v2.0`: openid-client accepts
 * it at discovery and checks each ID token's `iss` against the template filled with the token's
 * `tid` claim, so a token naming another tenant than its own is refused.
 */
export class OpenIdClient implements OidcClient {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();

  /** `fetch` replaces the HTTP client (tests route a provider's address to a loopback peer). */
  constructor(private readonly options: { fetch?: typeof fetch } = {}) {}

  /** Discovery once per provider; a failed discovery is retried on the next sign-in. */
  private configuration(p: OidcProviderConfig): Promise<oidc.Configuration> {
    let found = this.configs.get(p.id);
    if (!found) {
      const options: oidc.DiscoveryRequestOptions = {};
      if (isLoopbackHttp(p.issuer)) options.execute = [oidc.allowInsecureRequests];
      if (this.options.fetch) options[oidc.customFetch] = this.options.fetch as oidc.CustomFetch;
      found = oidc.discovery(new URL(p.issuer), p.clientId, p.clientSecret, undefined, options);
      found.catch(() => this.configs.delete(p.id));
      this.configs.set(p.id, found);
    }
    return found;
  }

  async authorizationUrl(p: OidcProviderConfig, r: AuthorizationRequest): Promise<string> {
    const config = await this.configuration(p);
    return oidc
      .buildAuthorizationUrl(config, {
        redirect_uri: r.redirectUri,
        scope: 'openid email profile',
        response_type: 'code',
        state: r.state,
        nonce: r.nonce,
        code_challenge: r.codeChallenge,
        code_challenge_method: 'S256',
      })
      .toString();
  }

  async exchange(
    p: OidcProviderConfig,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<IdentityClaims> {
    const config = await this.configuration(p);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('the provider answered no ID token');
    let claims: Record<string, unknown> = idClaims;
    // Providers may keep e-mail and names out of the ID token and answer them at userinfo.
    if (!text(idClaims.email) && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = {
        ...info,
        ...idClaims,
        ...pick(info, ['email', 'email_verified', 'given_name', 'family_name', 'name']),
      };
    }
    return {
      sub: idClaims.sub,
      email: text(claims.email)?.toLowerCase() ?? null,
      emailVerified: typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
      givenName: text(claims.given_name),
      familyName: text(claims.family_name),
      name: text(claims.name),
    };
  }
}
