import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcProviderConfig } from '../../platform/config.js';
import { AZURE_COMMON_ISSUER, startAzurePeer, type AzurePeer } from '../../test-support/oidc-peer.js';
import { OpenIdClient } from './oidc-client.js';

const CALLBACK = 'http://slipway.test/api/auth/oauth/callback';

/**
 * SLIPWAY_OIDC_AZURE_ISSUER=https://login.microsoftonline.com/common/v2.0: discovery publishes
 * the `{tenantid}` issuer template and each ID token's `iss` must be the template filled with its
 * own `tid`. The peer speaks Azure's protocol on loopback; the client's requests for Azure's
 * address are routed to it.
 */
describe('Azure multi-tenant (common) issuer', () => {
  let peer: AzurePeer;
  let client: OpenIdClient;
  let provider: OidcProviderConfig;
  beforeAll(async () => {
    peer = await startAzurePeer(CALLBACK);
    client = new OpenIdClient({ fetch: peer.fetch });
    provider = {
      id: 'azure',
      name: 'Azure',
      issuer: AZURE_COMMON_ISSUER,
      clientId: peer.clientId,
      clientSecret: peer.clientSecret,
    };
  });
  afterAll(() => peer?.close());

  /** Starts a sign-in, lets the provider answer, and exchanges the code. */
  async function signIn() {
    const checks = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = await client.authorizationUrl(provider, {
      redirectUri: CALLBACK,
      state: checks.state,
      nonce: checks.nonce,
      codeChallenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    });
    expect(url.startsWith('https://login.microsoftonline.com/common/oauth2/v2.0/authorize?')).toBe(true);
    const back = await peer.fetch(url);
    expect(back.status).toBe(302);
    return client.exchange(provider, new URL(back.headers.get('location')!), checks);
  }

  it('signs in people of any tenant, checking iss against the template and their tid', async () => {
    peer.tokens.tid = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    delete peer.tokens.iss;
    expect(await signIn()).toMatchObject({ sub: 'azure-ada', email: 'ada@tenant.test', givenName: 'Ada' });
    peer.tokens.tid = '9188040d-6c67-4c5b-b112-36a304b66dad';
    expect((await signIn()).email).toBe('ada@tenant.test');
  });

  /** What openid-client refused the ID token for. */
  async function refusal() {
    const err = await signIn().then(
      () => null,
      (e: unknown) => e as { cause?: { cause?: { claim?: string; expected?: string } } },
    );
    const detail = err?.cause?.cause;
    return { claim: detail?.claim, expected: detail?.expected };
  }

  it('refuses an ID token whose iss names another tenant than its tid', async () => {
    peer.tokens.tid = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    peer.tokens.iss = 'https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555/v2.0';
    expect(await refusal()).toEqual({
      claim: 'iss',
      expected: `https://login.microsoftonline.com/${peer.tokens.tid}/v2.0`,
    });
    // nor one that kept the template itself
    peer.tokens.iss = 'https://login.microsoftonline.com/{tenantid}/v2.0';
    expect((await refusal()).claim).toBe('iss');
    delete peer.tokens.iss;
  });

  it('refuses a templated issuer from any other address than Azure', async () => {
    const elsewhere = new OpenIdClient({
      fetch: (input, init) => {
        const req = input instanceof Request ? input : new Request(input, init);
        const url = new URL(req.url);
        return peer.fetch(`https://login.microsoftonline.com${url.pathname}${url.search}`, init);
      },
    });
    const impostor = { ...provider, issuer: 'https://idp.example.test/common/v2.0' };
    await expect(
      elsewhere.authorizationUrl(impostor, {
        redirectUri: CALLBACK,
        state: 's',
        nonce: 'n',
        codeChallenge: 'c',
      }),
    ).rejects.toThrow(/issuer/);
  });
});
