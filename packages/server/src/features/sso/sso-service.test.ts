import { describe, expect, it } from 'vitest';
import {
  MASKED_SECRET,
  MESSAGES,
  SSO_MESSAGES,
  type LoginResponse,
  type SsoSettingsRequest,
} from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import { Keys } from '../../platform/keys.js';
import { FakeSsoStore } from './fake-sso-store.js';
import type { Directory, DirectoryPerson, LdapConnection } from './ldap-directory.js';
import { DirectorySignInError, SsoService } from './sso-service.js';
import type { SsoUserRow } from './sso-store.js';

const ORG = 'org-a';
const ctx = { ip: '203.0.113.5', userAgent: null, fingerprint: null };
const request = (over: Partial<SsoSettingsRequest> = {}): SsoSettingsRequest => ({
  url: 'ldap://ldap.example.com',
  bindDn: 'cn=reader,dc=example,dc=com',
  bindPassword: 'bind-secret',
  baseDn: 'dc=example,dc=com',
  userQuery: '(uid={username})',
  groupQuery: '(member={dn})',
  emailAttribute: 'mail',
  enabled: true,
  groupRoles: [],
  startTls: false,
  skipTlsVerify: false,
  caCertificate: '',
  ...over,
});

/** A directory of people by username and password. */
class FakeDirectory implements Directory {
  readonly people = new Map<string, { password: string; person: DirectoryPerson }>();
  readonly tested: LdapConnection[] = [];
  failTest: Error | undefined;
  async test(conn: LdapConnection) {
    this.tested.push(conn);
    if (this.failTest) throw this.failTest;
  }
  async authenticate(_conn: LdapConnection, username: string, password: string) {
    const entry = this.people.get(username);
    return entry && entry.password === password ? entry.person : null;
  }
}

function setup() {
  const store = new FakeSsoStore();
  store.addWorkspace(ORG, 'ws-1');
  store.addRole(ORG, 'custom-1');
  const directory = new FakeDirectory();
  const throttled: string[] = [];
  const throttle = {
    before: async () => void throttled.push('before'),
    succeeded: async () => void throttled.push('succeeded'),
    failed: async () => void throttled.push('failed'),
  };
  const sessions = {
    startSession: async (user: SsoUserRow, _ctx: unknown, origin: 'ldap') =>
      ({
        token: `${origin}:${user.id}:${user.currentOrganisationId}`,
        projectId: null,
      }) satisfies LoginResponse,
  };
  const service = new SsoService(store, directory, new Keys(Buffer.alloc(32, 5)), throttle, sessions);
  return { store, directory, throttled, service };
}

const person = (over: Partial<DirectoryPerson> = {}): DirectoryPerson => ({
  dn: 'uid=ann,dc=example,dc=com',
  email: 'ann@example.com',
  givenName: null,
  surname: null,
  commonName: 'Ann Marie Smith',
  groups: [{ dn: 'cn=ops,dc=example,dc=com', cn: 'ops' }],
  ...over,
});

describe('SsoService over the fake store', () => {
  it('needs a bind password the first time; later a masked or empty one keeps the stored one', async () => {
    const { service, store } = setup();
    const err = await service.save(ORG, request({ bindPassword: '' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({
      message: SSO_MESSAGES.bindPasswordRequired,
      details: [{ path: 'body.bindPassword' }],
    });
    const first = await service.save(ORG, request());
    expect(first).toMatchObject({ configured: true, bindPassword: MASKED_SECRET, hasBindPassword: true });
    expect(first.needsRetest).toBeUndefined();
    const sealed = (await store.settings(ORG))!.bindPasswordEncrypted;
    expect(sealed).not.toContain('bind-secret');
    const kept = await service.save(ORG, request({ bindPassword: MASKED_SECRET, enabled: false }));
    expect(kept.needsRetest).toBeUndefined();
    expect((await store.settings(ORG))!.bindPasswordEncrypted).toBe(sealed);
  });

  it('a changed connection, TLS setting or password asks for a new test', async () => {
    const { service } = setup();
    await service.save(ORG, request());
    for (const change of [
      { url: 'ldap://other.example.com' },
      { skipTlsVerify: true },
      { bindPassword: 'new-one' },
    ]) {
      const saved = await service.save(ORG, request({ ...change }));
      expect(saved).toMatchObject({ needsRetest: true, message: MESSAGES.fieldsModifiedRetest });
      await service.save(ORG, request());
    }
  });

  it('group mappings name the organisation’s workspaces and roles; StartTLS is not for ldaps://', async () => {
    const { service } = setup();
    const err = await service
      .save(
        ORG,
        request({
          groupRoles: [
            { group: 'ops', organisationRole: 'member', workspaceId: 'ws-1', workspaceRole: 'custom-1' },
            { group: 'dev', organisationRole: 'member', workspaceId: 'ws-x', workspaceRole: 'nobody' },
          ],
        }),
      )
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      message: 'body.groupRoles.1.workspaceId: No such workspace in this organisation',
      details: [
        { path: 'body.groupRoles.1.workspaceId' },
        { path: 'body.groupRoles.1.workspaceRole', message: 'No such role in this organisation' },
      ],
    });
    await expect(
      service.save(ORG, request({ url: 'ldaps://ldap.example.com', startTls: true })),
    ).rejects.toThrow(SSO_MESSAGES.startTlsWithLdaps);
  });

  it('tests the saved settings, or given ones over them, and answers the server’s words', async () => {
    const { service, directory } = setup();
    expect(await service.test(ORG)).toEqual({
      ok: false,
      message: 'Save the settings (URL, bind DN, bind password and base DN) first',
    });
    await service.save(ORG, request());
    expect(await service.test(ORG)).toEqual({
      ok: true,
      message: 'Connected to ldap://ldap.example.com and read dc=example,dc=com',
    });
    expect(directory.tested[0]!.bindPassword).toBe('bind-secret');
    directory.failTest = new Error('Invalid credentials (49)');
    expect(await service.test(ORG, { bindPassword: 'try-this' })).toEqual({
      ok: false,
      message: 'Invalid credentials (49)',
    });
    expect(directory.tested[1]!.bindPassword).toBe('try-this');
  });

  it('a first directory sign-in creates the person with the roles their groups map to', async () => {
    const { service, store, directory, throttled } = setup();
    await service.save(
      ORG,
      request({
        groupRoles: [
          {
            group: 'ops',
            organisationRole: 'account_admin',
            workspaceId: 'ws-1',
            workspaceRole: 'developer',
          },
        ],
      }),
    );
    directory.people.set('ann', { password: 'pw', person: person() });
    const login = await service.ldapLogin(ORG, 'ann', 'pw', ctx);
    expect(login.token).toBe(`ldap:${login.userId}:${ORG}`);
    expect(store.people.get(login.userId)).toMatchObject({
      firstName: 'Ann',
      lastName: 'Marie Smith',
      passwordHash: null,
    });
    expect(await store.organisationRole(login.userId, ORG)).toBe('account_admin');
    expect(store.workspaceRoles.get(`ws-1 ${login.userId}`)).toBe('developer');
    expect(throttled).toEqual(['before', 'succeeded']);
  });

  it('refuses with "Invalid credentials", keeping the reason for the audit trail', async () => {
    const { service, store, directory, throttled } = setup();
    const reasonOf = async (username: string, password = 'pw') => {
      const err = await service.ldapLogin(ORG, username, password, ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DirectorySignInError);
      expect((err as Error).message).toBe(MESSAGES.invalidCredentials);
      return (err as DirectorySignInError).reason;
    };
    expect(await reasonOf('ann')).toBe('single sign-on is not enabled');
    await service.save(ORG, request());
    expect(await reasonOf('ann', 'wrong')).toBe('unknown user or wrong password');
    directory.people.set('nomail', { password: 'pw', person: person({ email: 'not-an-email' }) });
    expect(await reasonOf('nomail')).toBe('no valid mail in the directory');
    store.addMember({ id: 'elsewhere', email: 'ann@example.com' });
    directory.people.set('ann', { password: 'pw', person: person() });
    expect(await reasonOf('ann')).toBe('this e-mail belongs to a person who is not a member here');
    expect(throttled.filter((t) => t === 'failed')).toHaveLength(4);
  });

  it('keeps an existing member’s organisation role in step with the groups, never a master admin’s', async () => {
    const { service, store, directory } = setup();
    await service.save(ORG, request({ groupRoles: [{ group: 'ops', organisationRole: 'account_admin' }] }));
    store.addMember({ id: 'ann', email: 'ann@example.com' }, ORG, 'member');
    store.addMember({ id: 'boss', email: 'boss@example.com' }, ORG, 'master_admin');
    directory.people.set('ann', { password: 'pw', person: person() });
    directory.people.set('boss', {
      password: 'pw',
      person: person({ email: 'boss@example.com', groups: [] }),
    });
    await service.ldapLogin(ORG, 'ann', 'pw', ctx);
    await service.ldapLogin(ORG, 'boss', 'pw', ctx);
    expect(await store.organisationRole('ann', ORG)).toBe('account_admin');
    expect(await store.organisationRole('boss', ORG)).toBe('master_admin');
  });
});
