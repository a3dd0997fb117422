import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** People the test OpenID provider knows; the login name picks one (any password works). */
export const OIDC_PEOPLE: Record<string, Record<string, unknown>> = {
  grace: { email: 'grace@oidc.test', email_verified: true, given_name: 'Grace', family_name: 'Hopper' },
  unverified: { email: 'mallory@oidc.test', email_verified: false, given_name: 'Mallory', family_name: 'M' },
};

export interface OidcPeer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider v9) on a free loopback port with one confidential client
 * that must use PKCE, and the library's development login and consent pages.
 */
export async function startOidcPeer(redirectUri: string): Promise<OidcPeer> {
  const clientId = 'slipway-test';
  const clientSecret = 'slipway-test-secret-0123456789';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount: (_ctx: unknown, id: string) =>
      OIDC_PEOPLE[id] ? { accountId: id, claims: () => ({ sub: id, ...OIDC_PEOPLE[id] }) } : undefined,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['slipway-oidc-peer-cookie-key'] },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          use: 'sig',
        },
      ],
    },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Plays the browser: follows redirects with a cookie jar and submits the provider's login and
 * consent forms, until the provider redirects to `stopAt`; answers that final URL.
 */
export async function signInAtProvider(startUrl: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = new URL(startUrl);
  let init: RequestInit = { method: 'GET' };
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as object), cookie: cookieHeader() },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1);
      if (value) jar.set(pair!.slice(0, eq), value);
      else jar.delete(pair!.slice(0, eq));
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      const next = new URL(location, url);
      if (next.toString().startsWith(stopAt)) return next;
      url = next;
      init = { method: 'GET' };
      continue;
    }
    const html = await res.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
    if (res.status !== 200 || !form)
      throw new Error(`unexpected answer ${res.status} at ${url}: ${html.slice(0, 500)}`);
    const fields = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*>/gi)) {
      const name = input[1]!;
      const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
      fields.set(name, name === 'login' ? login : name === 'password' ? 'any-password' : value);
    }
    url = new URL(form[1]!.replaceAll('&amp;', '&'), url);
    init = {
      method: 'POST',
      body: fields.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('too many redirects at the OpenID provider');
}

/** Azure's (Entra ID) multi-tenant sign-in address and the issuer template its discovery publishes. */
export const AZURE_ORIGIN = 'https://login.microsoftonline.com';
export const AZURE_COMMON_ISSUER = `${AZURE_ORIGIN}/common/v2.0`;
export const AZURE_ISSUER_TEMPLATE = `${AZURE_ORIGIN}/{tenantid}/v2.0`;

export interface AzurePeer {
  clientId: string;
  clientSecret: string;
  /** A fetch that sends every request for AZURE_ORIGIN to this peer on loopback, and refuses any other. */
  fetch: typeof fetch;
  /** The tenant and `iss` of the next ID tokens (an `iss` other than the tenant's is a forgery). */
  tokens: { tid: string; iss?: string };
  close(): Promise<void>;
}

/**
 * A peer speaking Azure's multi-tenant OpenID protocol on loopback: the `common` discovery
 * document with the `{tenantid}` issuer template, the authorization code flow with PKCE, and
 * RS256 ID tokens whose `iss` names the signing-in person's tenant (`tid`). Requests reach it
 * through `fetch`, which maps https://login.microsoftonline.com to the peer.
 */
export async function startAzurePeer(redirectUri: string): Promise<AzurePeer> {
  const { SignJWT, exportJWK } = await import('jose');
  const { createHash, randomBytes } = await import('node:crypto');
  const clientId = 'slipway-azure-test';
  const clientSecret = 'azure-test-secret-0123456789';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', use: 'sig', alg: 'RS256' };
  const codes = new Map<string, { nonce: string; challenge: string }>();
  const tokens: AzurePeer['tokens'] = { tid: '00000000-0000-0000-0000-000000000001' };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', AZURE_ORIGIN);
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        if (url.pathname === '/common/v2.0/.well-known/openid-configuration') {
          return json(res, 200, {
            issuer: AZURE_ISSUER_TEMPLATE,
            authorization_endpoint: `${AZURE_ORIGIN}/common/oauth2/v2.0/authorize`,
            token_endpoint: `${AZURE_ORIGIN}/common/oauth2/v2.0/token`,
            jwks_uri: `${AZURE_ORIGIN}/common/discovery/v2.0/keys`,
            response_types_supported: ['code'],
            subject_types_supported: ['pairwise'],
            id_token_signing_alg_values_supported: ['RS256'],
            token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
            scopes_supported: ['openid', 'profile', 'email'],
          });
        }
        if (url.pathname === '/common/discovery/v2.0/keys') return json(res, 200, { keys: [jwk] });
        if (url.pathname === '/common/oauth2/v2.0/authorize') {
          const p = url.searchParams;
          if (p.get('client_id') !== clientId || p.get('redirect_uri') !== redirectUri)
            return json(res, 400, { error: 'invalid_request' });
          const code = randomBytes(16).toString('hex');
          codes.set(code, { nonce: p.get('nonce') ?? '', challenge: p.get('code_challenge') ?? '' });
          const back = new URL(redirectUri);
          back.searchParams.set('code', code);
          back.searchParams.set('state', p.get('state') ?? '');
          return res.writeHead(302, { location: back.toString() }).end();
        }
        if (url.pathname === '/common/oauth2/v2.0/token' && req.method === 'POST') {
          const pending = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (
            !pending ||
            form.get('client_id') !== clientId ||
            form.get('client_secret') !== clientSecret ||
            challenge !== pending.challenge
          )
            return json(res, 400, { error: 'invalid_grant' });
          const idToken = await new SignJWT({
            tid: tokens.tid,
            nonce: pending.nonce,
            email: 'ada@tenant.test',
            given_name: 'Ada',
            family_name: 'Lovelace',
          })
            .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
            .setIssuer(tokens.iss ?? AZURE_ISSUER_TEMPLATE.replace('{tenantid}', tokens.tid))
            .setSubject('azure-ada')
            .setAudience(clientId)
            .setIssuedAt()
            .setExpirationTime('10m')
            .sign(privateKey);
          return json(res, 200, {
            access_token: randomBytes(16).toString('hex'),
            token_type: 'Bearer',
            expires_in: 600,
            id_token: idToken,
          });
        }
        return json(res, 404, { error: 'not_found' });
      })().catch((err: unknown) => json(res, 500, { error: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const loopback = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mapped: typeof fetch = (input, init) => {
    const req = input instanceof Request ? input : new Request(input, init);
    const url = new URL(req.url);
    if (url.origin !== AZURE_ORIGIN) throw new Error(`the Azure peer only answers ${AZURE_ORIGIN}: ${url}`);
    return fetch(new Request(`${loopback}${url.pathname}${url.search}`, req), { redirect: 'manual' });
  };
  return {
    clientId,
    clientSecret,
    fetch: mapped,
    tokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
