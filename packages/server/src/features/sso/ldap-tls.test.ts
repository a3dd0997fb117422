import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_MESSAGES } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import {
  LDAP_PEOPLE,
  SERVICE_DN,
  SERVICE_PASSWORD,
  SLAPD_BIN,
  slapdAvailable,
  slapdRequired,
  startSlapd,
  SUFFIX,
  type SlapdPeer,
} from '../../test-support/slapd.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const withSlapd = slapdAvailable || slapdRequired;
if (!withSlapd) console.log(`LDAP TLS tests skipped: no slapd at ${SLAPD_BIN}`);

/**
 * The directory is a real slapd with a self-signed certificate made by openssl, listening on
 * ldap:// (StartTLS) and ldaps://, and refusing simple binds that are not encrypted.
 */
describe.skipIf(!withSlapd)('LDAP over TLS: ldaps:// and StartTLS against a real slapd', () => {
  let t: TestApp;
  let slapd: SlapdPeer;
  let admin: TestUser;
  const put = (over: Record<string, unknown>) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/sso/settings',
      headers: admin.headers,
      payload: {
        url: slapd.url,
        bindDn: SERVICE_DN,
        bindPassword: SERVICE_PASSWORD,
        baseDn: SUFFIX,
        userQuery: '(uid={username})',
        groupQuery: '(member={dn})',
        enabled: true,
        ...over,
      },
    });
  const test = async (payload?: object) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/sso/test',
        headers: admin.headers,
        ...(payload ? { payload } : {}),
      })
    ).json() as { ok: boolean; message: string };
  const ldapLogin = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/ldap_login',
      payload: { username: 'ada', password: LDAP_PEOPLE.ada.password, organisationId: admin.organisationId },
    });

  beforeAll(async () => {
    slapd = await startSlapd({ tls: true });
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('a plain ldap:// bind is refused by this directory', async () => {
    expect((await put({})).statusCode).toBe(200);
    const plain = await test();
    expect(plain.ok).toBe(false);
    expect(plain.message).toMatch(/confidentiality required/i);
    expect((await ldapLogin()).statusCode).toBe(401);
  });

  it('StartTLS upgrades ldap:// and checks the certificate against the given CA', async () => {
    expect((await put({ startTls: true })).statusCode).toBe(200);
    const untrusted = await test();
    expect(untrusted.ok).toBe(false);
    expect(untrusted.message).toMatch(/self[- ]signed/i);

    const saved = await put({ startTls: true, caCertificate: slapd.certificate });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      startTls: true,
      skipTlsVerify: false,
      caCertificate: slapd.certificate!.trim(),
    });
    expect(await test()).toMatchObject({ ok: true });
    const login = await ldapLogin();
    expect(login.statusCode, login.body).toBe(200);
    // a test may try other TLS settings without saving them
    expect((await test({ startTls: false })).ok).toBe(false);
    expect(await test()).toMatchObject({ ok: true });
  });

  it('ldaps:// with the CA, or with verification skipped; never with a wrong CA', async () => {
    expect((await put({ url: slapd.ldapsUrl, caCertificate: slapd.certificate })).statusCode).toBe(200);
    expect(await test()).toMatchObject({ ok: true });
    expect((await ldapLogin()).statusCode).toBe(200);

    expect((await put({ url: slapd.ldapsUrl, caCertificate: '' })).statusCode).toBe(200);
    expect((await test()).ok).toBe(false);
    expect((await put({ url: slapd.ldapsUrl, skipTlsVerify: true })).statusCode).toBe(200);
    expect(await test()).toMatchObject({ ok: true });
  });

  it('names the field for StartTLS with ldaps:// and for a CA that is not PEM', async () => {
    const both = await put({ url: slapd.ldapsUrl, startTls: true });
    expect(both.statusCode).toBe(400);
    expect(both.json().details).toContainEqual({
      path: 'body.startTls',
      message: SSO_MESSAGES.startTlsWithLdaps,
    });
    const notPem = await put({ caCertificate: 'MIIB...not a certificate' });
    expect(notPem.statusCode).toBe(400);
    expect(notPem.json().details).toContainEqual({
      path: 'body.caCertificate',
      message: SSO_MESSAGES.caCertificate,
    });
    // nothing half written: the last good settings stand
    const got = await t.app.inject({ url: '/api/sso/settings', headers: admin.headers });
    expect(got.json()).toMatchObject({ url: slapd.ldapsUrl, startTls: false, skipTlsVerify: true });
  });

  it('reads settings saved before TLS settings existed', async () => {
    await t.db.database.db.execute(
      sql`UPDATE sso_settings SET group_roles = '[{"group":"devs","organisationRole":"member"}]'::jsonb, tls = NULL`,
    );
    const got = await t.app.inject({ url: '/api/sso/settings', headers: admin.headers });
    expect(got.json()).toMatchObject({
      startTls: false,
      skipTlsVerify: false,
      caCertificate: '',
      groupRoles: [{ group: 'devs', organisationRole: 'member' }],
    });
  });
});
