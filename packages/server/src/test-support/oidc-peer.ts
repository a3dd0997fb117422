import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
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
