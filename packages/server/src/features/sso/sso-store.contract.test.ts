import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { organisationMembers, roles, users } from '../../platform/database/schema.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeSsoStore } from './fake-sso-store.js';
import { DEFAULT_TLS, SqlSsoStore, type SsoStore, type StoredSsoSettings } from './sso-store.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
interface Arrange {
  addWorkspace(organisationId: string, id: string): Promise<void>;
  addRole(organisationId: string, id: string): Promise<void>;
  addMember(person: { id: string; email: string }, organisationId: string, role: string): Promise<void>;
}
const implementations: [string, () => { store: SsoStore; arrange: Arrange }][] = [
  [
    'fake',
    () => {
      const store = new FakeSsoStore();
      return {
        store,
        arrange: {
          addWorkspace: async (org, id) => store.addWorkspace(org, id),
          addRole: async (org, id) => store.addRole(org, id),
          addMember: async (p, org, role) => store.addMember(p, org, role),
        },
      };
    },
  ],
  [
    'SQL',
    () => {
      const db = database.db();
      return {
        store: new SqlSsoStore(db),
        arrange: {
          addWorkspace: async () => {},
          addRole: async (organisationId, id) => {
            await db.insert(roles).values({ id, organisationId, name: id });
          },
          addMember: async (p, organisationId, role) => {
            await db.insert(users).values({ ...p, firstName: 'F', lastName: 'L' });
            await db.insert(organisationMembers).values({ organisationId, userId: p.id, role });
          },
        },
      };
    },
  ],
];

describe.each(implementations)('SsoStore contract: %s', (_name, make) => {
  let store: SsoStore;
  let org: string;
  let ws: [string, string];
  const tag = randomUUID().slice(0, 8);
  const role = `role-${tag}`;
  const existing = { id: `ann-${tag}`, email: `ann-${tag}@example.com` };
  const settings = (over: Partial<StoredSsoSettings> = {}): Omit<StoredSsoSettings, 'updatedAt'> => ({
    organisationId: org,
    enabled: true,
    url: 'ldap://ldap.example.com',
    bindDn: 'cn=reader',
    bindPasswordEncrypted: 'sealed',
    baseDn: 'dc=example',
    userQuery: '(uid={username})',
    groupQuery: '(member={dn})',
    emailAttribute: 'mail',
    groupRoles: [{ group: 'ops', organisationRole: 'member' }],
    tls: DEFAULT_TLS,
    ...over,
  });

  beforeAll(async () => {
    const made = make();
    store = made.store;
    const seeded = await seedOrganisation(database.db());
    [org, ws] = [seeded.organisationId, seeded.workspaceIds];
    for (const id of ws) await made.arrange.addWorkspace(org, id);
    await made.arrange.addRole(org, role);
    await made.arrange.addMember(existing, org, 'member');
  });

  it('saves settings over the previous ones and reads them back', async () => {
    expect(await store.settings(org)).toBeNull();
    await store.saveSettings(settings());
    const tls = { startTls: true, skipTlsVerify: false, caCertificate: '' };
    const saved = await store.saveSettings(settings({ enabled: false, tls }));
    expect(saved.updatedAt).toBeInstanceOf(Date);
    expect(await store.settings(org)).toMatchObject({ enabled: false, tls, groupRoles: [{ group: 'ops' }] });
  });

  it('knows the organisation’s workspaces and custom roles', async () => {
    expect((await store.workspaceIds(org)).sort()).toEqual([...ws].sort());
    expect(await store.customRoleIds(org)).toEqual([role]);
  });

  it('creates a directory person as a verified member, and keeps roles in step', async () => {
    expect(await store.userByEmail(existing.email)).toMatchObject({ id: existing.id });
    const email = `new-${tag}@example.com`;
    const created = await store.createDirectoryUser({
      email,
      firstName: 'New',
      lastName: 'Person',
      organisationId: org,
      organisationRole: 'account_admin',
    });
    expect(created).toMatchObject({ email, passwordHash: null, currentOrganisationId: org });
    expect(created.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await store.organisationRole(created.id, org)).toBe('account_admin');
    await store.setOrganisationRole(created.id, org, 'member');
    expect(await store.organisationRole(created.id, org)).toBe('member');
    await store.setWorkspaceRole(created.id, ws[0], 'viewer');
    await expect(store.setWorkspaceRole(created.id, ws[0], 'developer')).resolves.toBeUndefined();
    expect(await store.organisationRole(created.id, randomUUID())).toBeNull();
  });
});
