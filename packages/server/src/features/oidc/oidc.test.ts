import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_HANDOFF_INVALID_MESSAGE } from '@slipway/contracts';
import { startOidcPeer, signInAtProvider, type OidcPeer } from '../../test-support/oidc-peer.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { isLoopbackHttp } from './oidc-client.js';

const PUBLIC_URL = 'http://slipway.test';
const CALLBACK = `${PUBLIC_URL}/api/auth/oauth/callback`;

describe('OpenID Connect sign-in against a real oidc-provider', () => {
  let t: TestApp;
  let peer: OidcPeer;

  beforeAll(async () => {
    peer = await startOidcPeer(CALLBACK);
    t = await createTestApp({
      SLIPWAY_PUBLIC_URL: PUBLIC_URL,
      SLIPWAY_OIDC_GOOGLE_ISSUER: peer.issuer,
      SLIPWAY_OIDC_GOOGLE_CLIENT_ID: peer.clientId,
      SLIPWAY_OIDC_GOOGLE_CLIENT_SECRET: peer.clientSecret,
    });
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  const loginUrl = async (intent = 'login', provider = 'google') => {
    const res = await t.app.inject({
      url: `/api/auth/oauth/login_url?provider=${provider}&intent=${intent}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return new URL(res.json().url as string);
  };
  const callback = (url: URL) =>
    t.app.inject({ url: `${url.pathname}${url.search}`, headers: { 'user-agent': 'oidc-test' } });
  const redirectOf = (res: { statusCode: number; headers: Record<string, unknown> }) => {
    expect(res.statusCode).toBe(302);
    return new URL(String(res.headers.location), PUBLIC_URL);
  };
  const exchange = (code: string | null) =>
    t.app.inject({ method: 'POST', url: '/api/auth/oauth/exchange', payload: { code } });
  /** The one-time code the callback put in the URL fragment. */
  const handoffCode = (to: URL) => new URLSearchParams(to.hash.slice(1)).get('oauth');
  /** The session a finished callback hands over. */
  const sessionOf = async (to: URL) => {
    const res = await exchange(handoffCode(to));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json() as { token: string; projectId: string | null };
  };

  it('lists only the providers that are configured', async () => {
    const res = await t.app.inject({ url: '/api/auth/oauth/providers' });
    expect(res.json()).toEqual([{ id: 'google', name: 'G Suite' }]);
    const azure = await t.app.inject({ url: '/api/auth/oauth/login_url?provider=azure' });
    expect(azure.statusCode).toBe(400);
  });

  it('builds the authorization URL from discovery with PKCE S256, state and nonce', async () => {
    const url = await loginUrl('signup');
    expect(url.origin).toBe(peer.issuer);
    expect(url.pathname).toBe('/auth');
    const p = url.searchParams;
    expect(p.get('client_id')).toBe(peer.clientId);
    expect(p.get('redirect_uri')).toBe(CALLBACK);
    expect(p.get('response_type')).toBe('code');
    expect(p.get('scope')).toBe('openid email profile');
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toBeTruthy();
    expect(p.get('nonce')).toBeTruthy();
  });

  it('signs a new person up through the provider and the token works', async () => {
    const back = await signInAtProvider((await loginUrl('signup')).toString(), 'grace', CALLBACK);
    expect(back.searchParams.get('code')).toBeTruthy();
    const res = await callback(back);
    const to = redirectOf(res);
    expect(to.pathname).toBe('/login');
    // no session token in the address: only a one-time code, in the fragment
    expect(to.search).toBe('');
    expect(res.headers.location).not.toMatch(/token|eyJ/);
    expect(handoffCode(to)).toMatch(/^[\w-]{43}$/);
    const { token, projectId } = await sessionOf(to);
    expect(token).toBeTruthy();
    // the code works once
    const used = await exchange(handoffCode(to));
    expect(used.statusCode).toBe(401);
    expect(used.json().message).toBe(OAUTH_HANDOFF_INVALID_MESSAGE);
    const profile = await t.app.inject({
      url: '/api/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      email: 'grace@oidc.test',
      firstName: 'Grace',
      lastName: 'Hopper',
      organisations: [{ role: 'master_admin' }],
      workspaces: [{ id: projectId }],
    });

    // the state is single-use: replaying the same callback fails
    const replay = redirectOf(await callback(back));
    expect(replay.searchParams.get('error')).toBe('Sign-in expired, please try again');

    // signing in again finds the same person
    const again = redirectOf(
      await callback(await signInAtProvider((await loginUrl()).toString(), 'grace', CALLBACK)),
    );
    const profile2 = await t.app.inject({
      url: '/api/profile',
      headers: { authorization: (await sessionOf(again)).token },
    });
    expect(profile2.json().id).toBe(profile.json().id);

    const audit = await t.app.inject({
      url: '/api/audit?action=auth.oauth_login&outcome=success',
      headers: { authorization: token },
    });
    expect(audit.json()[0]).toMatchObject({
      actorLabel: 'grace@oidc.test',
      actorType: 'user',
      userAgent: 'oidc-test',
    });
  });

  it('refuses unknown, empty and expired one-time codes', async () => {
    const unknown = await exchange('not-a-code');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(OAUTH_HANDOFF_INVALID_MESSAGE);
    const empty = await exchange(' ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toContainEqual(expect.objectContaining({ path: 'body.code' }));
    const to = redirectOf(
      await callback(await signInAtProvider((await loginUrl()).toString(), 'grace', CALLBACK)),
    );
    await t.db.database.db.execute(
      sql`UPDATE oauth_states SET expires_at = now() - interval '1 second' WHERE provider = 'handoff'`,
    );
    expect((await exchange(handoffCode(to))).statusCode).toBe(401);
    // a handoff code is no sign-in state
    const stateless = redirectOf(
      await t.app.inject({ url: `/api/auth/oauth/callback?code=x&state=${handoffCode(to)}` }),
    );
    expect(stateless.searchParams.get('error')).toBe('Sign-in expired, please try again');
  });

  it('refuses an e-mail the provider says is not verified', async () => {
    const back = await signInAtProvider((await loginUrl('signup')).toString(), 'unverified', CALLBACK);
    const to = redirectOf(await callback(back));
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('error')).toBe('Your e-mail address is not verified with the provider');
    expect(to.hash).toBe('');
  });

  it('redirects with an error for a forged state, a provider error or a tampered code', async () => {
    expect(
      redirectOf(
        await t.app.inject({ url: '/api/auth/oauth/callback?code=x&state=forged' }),
      ).searchParams.get('error'),
    ).toBe('Sign-in expired, please try again');
    expect(
      redirectOf(
        await t.app.inject({ url: '/api/auth/oauth/callback?error=access_denied' }),
      ).searchParams.get('error'),
    ).toBe('Sign-in was cancelled');
    const back = await signInAtProvider((await loginUrl()).toString(), 'grace', CALLBACK);
    back.searchParams.set('code', 'tampered');
    expect(redirectOf(await callback(back)).searchParams.get('error')).toBe('Sign-in failed');
  });

  it('allows plain http only for a loopback issuer', () => {
    expect(isLoopbackHttp('http://127.0.0.1:4000')).toBe(true);
    expect(isLoopbackHttp('http://localhost:4000/realm')).toBe(true);
    expect(isLoopbackHttp('http://idp.example.com')).toBe(false);
    expect(isLoopbackHttp('https://accounts.google.com')).toBe(false);
  });
});
