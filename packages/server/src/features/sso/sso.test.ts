import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LDAP_SESSION_SWITCH_MESSAGE, MASKED_SECRET, MESSAGES, SSO_MESSAGES } from '@slipway/contracts';
import { addToOrganisation, createSignedInUser, type TestUser } from '../../test-support/identity.js';
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
if (!withSlapd)
  console.log(`LDAP tests skipped: no slapd at ${SLAPD_BIN} (apt-get install slapd ldap-utils)`);

describe('Enterprise SSO settings', () => {
  let t: TestApp;
  let admin: TestUser;
  const settings = (over: Record<string, unknown> = {}) => ({
    url: 'ldap://127.0.0.1:1',
    bindDn: SERVICE_DN,
    bindPassword: SERVICE_PASSWORD,
    baseDn: SUFFIX,
    userQuery: '(uid={username})',
    groupQuery: '(member={dn})',
    enabled: true,
    ...over,
  });
  const put = (payload: object, who: TestUser = admin) =>
    t.app.inject({ method: 'PUT', url: '/api/sso/settings', headers: who.headers, payload });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => t.close());

  it('answers defaults before anything is saved', async () => {
    const res = await t.app.inject({ url: '/api/sso/settings', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ configured: false, hasBindPassword: false, emailAttribute: 'mail' });
  });

  it('names the field in validation errors', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ url: 'http://ldap.example.com' }, 'body.url', SSO_MESSAGES.urlLdap],
      [{ bindDn: '' }, 'body.bindDn', SSO_MESSAGES.bindDnRequired],
      [{ baseDn: ' ' }, 'body.baseDn', SSO_MESSAGES.baseDnRequired],
      [{ userQuery: '(uid=ada)' }, 'body.userQuery', SSO_MESSAGES.userQueryPlaceholder],
      [{ groupQuery: 'member={dn}' }, 'body.groupQuery', SSO_MESSAGES.groupQueryPlaceholder],
      [{ emailAttribute: 'ma il' }, 'body.emailAttribute', SSO_MESSAGES.emailAttribute],
      [{ bindPassword: undefined }, 'body.bindPassword', SSO_MESSAGES.bindPasswordRequired],
      [
        {
          groupRoles: [
            { group: 'devs', organisationRole: 'member', workspaceId: 'nope', workspaceRole: 'developer' },
          ],
        },
        'body.groupRoles.0.workspaceId',
        'No such workspace in this organisation',
      ],
    ];
    for (const [over, path, message] of cases) {
      const res = await put(settings(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().details).toContainEqual({ path, message });
    }
  });

  it('stores the bind password encrypted and never answers it', async () => {
    const res = await put(settings());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      configured: true,
      bindPassword: MASKED_SECRET,
      hasBindPassword: true,
    });
    expect(res.json().needsRetest).toBeUndefined();
    const got = await t.app.inject({ url: '/api/sso/settings', headers: admin.headers });
    expect(got.body).not.toContain(SERVICE_PASSWORD);
    const stored = await t.db.database.db.execute(sql`SELECT bind_password_encrypted AS p FROM sso_settings`);
    const rows = ((stored as { rows?: unknown[] }).rows ?? stored) as Array<{ p: string }>;
    expect(rows[0]!.p).not.toContain(SERVICE_PASSWORD);
    const audit = await t.app.inject({
      url: '/api/audit?action=sso.update&outcome=success',
      headers: admin.headers,
    });
    expect(audit.body).not.toContain(SERVICE_PASSWORD);
    expect(audit.json()[0]).toMatchObject({ targetType: 'sso_settings', targetId: admin.organisationId });
  });

  it('asks for a new test when connection fields change, not otherwise', async () => {
    const same = await put(settings({ bindPassword: undefined }));
    expect(same.json().needsRetest).toBeUndefined();
    const moved = await put(settings({ url: 'ldaps://ldap.example.com', bindPassword: MASKED_SECRET }));
    expect(moved.json()).toMatchObject({
      needsRetest: true,
      message: MESSAGES.fieldsModifiedRetest,
      hasBindPassword: true,
    });
    const rekeyed = await put(settings({ url: 'ldaps://ldap.example.com', bindPassword: 'Another!1' }));
    expect(rekeyed.json().needsRetest).toBe(true);
  });

  it('reads and moves TLS settings stored inside group_roles by interim versions', async () => {
    expect(
      (await put(settings({ url: 'ldaps://ldap.example.com', bindPassword: 'Another!1' }))).statusCode,
    ).toBe(200);
    await t.db.database.db.execute(
      sql`UPDATE sso_settings SET tls = NULL, group_roles = ${JSON.stringify({
        groupRoles: [{ group: 'devs', organisationRole: 'member' }],
        tls: { startTls: false, skipTlsVerify: true, caCertificate: '' },
      })}::jsonb WHERE organisation_id = ${admin.organisationId}`,
    );
    const got = await t.app.inject({ url: '/api/sso/settings', headers: admin.headers });
    expect(got.json()).toMatchObject({
      skipTlsVerify: true,
      startTls: false,
      groupRoles: [{ group: 'devs', organisationRole: 'member' }],
    });
    const columns = async () => {
      const res = await t.db.database.db.execute(
        sql`SELECT group_roles AS g, tls FROM sso_settings WHERE organisation_id = ${admin.organisationId}`,
      );
      return (((res as { rows?: unknown[] }).rows ?? res) as Array<{ g: unknown; tls: unknown }>)[0]!;
    };
    expect(await columns()).toEqual({
      g: [{ group: 'devs', organisationRole: 'member' }],
      tls: { startTls: false, skipTlsVerify: true, caCertificate: '' },
    });
    // Saving writes the two columns; plain defaults leave tls empty.
    const saved = await put(
      settings({
        url: 'ldap://ldap.example.com',
        bindPassword: undefined,
        skipTlsVerify: false,
        groupRoles: [],
      }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await columns()).toEqual({ g: [], tls: null });
  });

  it('refuses members without sso permissions', async () => {
    const member = await createSignedInUser(t.app, t.db.database);
    await addToOrganisation(t.db.database, {
      userId: member.userId,
      organisationId: admin.organisationId,
      role: 'member',
    });
    await t.db.database.db.execute(
      sql`UPDATE sessions SET organisation_id = ${admin.organisationId} WHERE user_id = ${member.userId}`,
    );
    expect((await put(settings(), member)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/sso/settings', headers: member.headers })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/sso/test', headers: member.headers })).statusCode,
    ).toBe(403);
  });
});

describe.skipIf(!withSlapd)('LDAP sign-in against a real slapd', () => {
  let t: TestApp;
  let slapd: SlapdPeer;
  let admin: TestUser;
  const ldapLogin = (username: string, password: string, organisationId = admin.organisationId) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/ldap_login',
      payload: { username, password, organisationId },
    });

  beforeAll(async () => {
    slapd = await startSlapd();
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.db.database);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/sso/settings',
      headers: admin.headers,
      payload: {
        url: slapd.url,
        bindDn: SERVICE_DN,
        bindPassword: SERVICE_PASSWORD,
        baseDn: SUFFIX,
        userQuery: '(&(objectClass=inetOrgPerson)(uid={username}))',
        groupQuery: '(&(objectClass=groupOfNames)(member={dn}))',
        emailAttribute: 'mail',
        enabled: true,
        groupRoles: [
          { group: 'admins', organisationRole: 'account_admin' },
          {
            group: `cn=devs,ou=groups,${SUFFIX}`,
            organisationRole: 'member',
            workspaceId: admin.workspaceId,
            workspaceRole: 'developer',
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  it('tests the connection with the saved settings and reports the server’s error', async () => {
    const ok = await t.app.inject({ method: 'POST', url: '/api/sso/test', headers: admin.headers });
    expect(ok.json()).toMatchObject({ ok: true });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/sso/test',
      headers: admin.headers,
      payload: { bindPassword: 'wrong' },
    });
    expect(bad.json().ok).toBe(false);
    expect(bad.json().message).toMatch(/invalid credentials/i);
  });

  it('signs a new person in, creating them with the role their groups map to', async () => {
    const res = await ldapLogin('ada', LDAP_PEOPLE.ada.password);
    expect(res.statusCode, res.body).toBe(200);
    const { token, projectId } = res.json();
    expect(projectId).toBe(admin.workspaceId);
    const profile = (await t.app.inject({ url: '/api/profile', headers: { authorization: token } })).json();
    expect(profile).toMatchObject({
      email: LDAP_PEOPLE.ada.mail,
      firstName: 'Ada',
      lastName: 'Lovelace',
      organisationId: admin.organisationId,
      organisations: [{ id: admin.organisationId, role: 'account_admin' }],
    });

    const bob = await ldapLogin('bob', LDAP_PEOPLE.bob.password);
    expect(bob.statusCode).toBe(200);
    const bobProfile = (
      await t.app.inject({ url: '/api/profile', headers: { authorization: bob.json().token } })
    ).json();
    expect(bobProfile.organisations).toEqual([expect.objectContaining({ role: 'member' })]);
    expect(bobProfile.workspaces).toEqual([
      expect.objectContaining({ id: admin.workspaceId, role: 'developer' }),
    ]);

    const again = await ldapLogin('ada', LDAP_PEOPLE.ada.password);
    expect(again.statusCode).toBe(200);
  });

  it('keeps an LDAP session in the organisation whose directory signed the person in', async () => {
    const login = await ldapLogin('bob', LDAP_PEOPLE.bob.password);
    expect(login.statusCode, login.body).toBe(200);
    const headers = { authorization: login.json().token as string };
    const profile = (await t.app.inject({ url: '/api/profile', headers })).json();
    expect(profile.signInMethod).toBe('ldap');
    // bob also belongs to another organisation
    const elsewhere = await createSignedInUser(t.app, t.db.database);
    await addToOrganisation(t.db.database, {
      userId: profile.id,
      organisationId: elsewhere.organisationId,
      role: 'member',
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/organisations/${elsewhere.organisationId}/switch`,
      headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(LDAP_SESSION_SWITCH_MESSAGE);
    // the session is untouched and still in the directory's organisation
    const still = (await t.app.inject({ url: '/api/profile', headers })).json();
    expect(still.organisationId).toBe(admin.organisationId);
    const audit = await t.app.inject({
      url: `/api/audit?action=organisation.switch&outcome=denied&_end=100`,
      headers: admin.headers,
    });
    expect(audit.json()).toContainEqual(
      expect.objectContaining({ targetId: elsewhere.organisationId, outcome: 'denied' }),
    );
    // "switching" to the same organisation keeps it an LDAP session
    const same = await t.app.inject({
      method: 'POST',
      url: `/api/organisations/${admin.organisationId}/switch`,
      headers,
    });
    expect(same.statusCode, same.body).toBe(200);
    const renewed = { authorization: same.json().token as string };
    expect((await t.app.inject({ url: '/api/profile', headers: renewed })).json().signInMethod).toBe('ldap');
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/organisations/${elsewhere.organisationId}/switch`,
      headers: renewed,
    });
    expect(again.statusCode).toBe(403);
  });

  it("answers 'Invalid credentials' for a wrong password or an unknown user", async () => {
    for (const [u, p] of [
      ['ada', 'Wrong!pass1'],
      ['nobody', 'Whatever!1'],
      ['ada', ' '],
    ] as const) {
      const res = await ldapLogin(u, p);
      expect(res.statusCode, `${u}`).toBe(401);
      expect(res.json().message).toBe(MESSAGES.invalidCredentials);
    }
  });

  it('does not let filter syntax in the username widen the search', async () => {
    for (const u of ['*)(uid=*', 'ad*', '*', 'ada)(|(uid=*']) {
      const res = await ldapLogin(u, LDAP_PEOPLE.ada.password);
      expect(res.statusCode, u).toBe(401);
      expect(res.json().message).toBe(MESSAGES.invalidCredentials);
    }
  });

  it('refuses organisations without enabled SSO, and people with an account elsewhere', async () => {
    expect((await ldapLogin('ada', LDAP_PEOPLE.ada.password, 'no-such-org')).statusCode).toBe(401);
    const other = await createSignedInUser(t.app, t.db.database);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/sso/settings',
      headers: other.headers,
      payload: {
        url: slapd.url,
        bindDn: SERVICE_DN,
        bindPassword: SERVICE_PASSWORD,
        baseDn: SUFFIX,
        userQuery: '(uid={username})',
        groupQuery: '(member={dn})',
        enabled: true,
      },
    });
    expect(saved.statusCode).toBe(200);
    // ada already exists as a member of the first organisation only
    expect((await ldapLogin('ada', LDAP_PEOPLE.ada.password, other.organisationId)).statusCode).toBe(401);
  });

  it('records directory sign-ins in the audit trail with the outcome and a reason', async () => {
    const res = await t.app.inject({
      url: '/api/audit?action=auth.ldap_login&_end=100',
      headers: admin.headers,
    });
    const rows = res.json() as Array<Record<string, unknown>>;
    expect(
      rows.some((r) => r.outcome === 'success' && r.actorLabel === 'ada' && r.targetType === 'user'),
    ).toBe(true);
    expect(
      rows.some(
        (r) =>
          r.outcome === 'failure' &&
          r.statusCode === 401 &&
          (r.detail as { reason?: string })?.reason === 'unknown user or wrong password',
      ),
    ).toBe(true);
  });
});
