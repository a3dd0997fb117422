import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { organisationMembers, organisations, users, workspaces } from '../../platform/database/schema.js';
import { contractDatabase } from '../../test-support/store-contract.js';
import { FakeMembersStore, type FakePerson } from './fake-members-store.js';
import { SqlMembersStore as SqlMembersStore } from './members-store.js';
import type { MemberPageQuery, MembersStore } from './members-store-type.js';

/** The same cases over the fake and the SQL store (decision 030); the scene is set through `arrange`. */
const database = contractDatabase();
interface Arrange {
  addOrganisation(id: string): Promise<void>;
  addMember(organisationId: string, person: FakePerson, role: string, joinedAt: Date): Promise<void>;
  addWorkspace(w: { id: string; organisationId: string; name: string }): Promise<void>;
}
const implementations: [string, () => { store: MembersStore; arrange: Arrange }][] = [
  [
    'fake',
    () => {
      const store = new FakeMembersStore();
      return {
        store,
        arrange: {
          addOrganisation: async () => {},
          addMember: async (org, person, role, joinedAt) => store.addMember(org, person, role, joinedAt),
          addWorkspace: async (w) => store.addWorkspace(w),
        },
      };
    },
  ],
  [
    'SQL',
    () => {
      const db = database.db();
      const known = new Set<string>();
      return {
        store: new SqlMembersStore(db),
        arrange: {
          addOrganisation: async (id) => {
            await db.insert(organisations).values({ id, name: id });
          },
          addMember: async (organisationId, person, role, joinedAt) => {
            if (!known.has(person.id))
              await db.insert(users).values({ ...person, currentOrganisationId: null });
            known.add(person.id);
            await db
              .insert(organisationMembers)
              .values({ organisationId, userId: person.id, role, createdAt: joinedAt });
          },
          addWorkspace: async (w) => {
            await db.insert(workspaces).values(w);
          },
        },
      };
    },
  ],
];
const page = (q: Partial<MemberPageQuery> = {}): MemberPageQuery => ({
  start: 0,
  end: 20,
  sort: 'email',
  order: 'ASC',
  ...q,
});

describe.each(implementations)('MembersStore contract: %s', (_name, make) => {
  let store: MembersStore;
  const org = randomUUID();
  const other = randomUUID();
  const tag = org.slice(0, 8);
  const person = (name: string): FakePerson => ({
    id: `${name}-${tag}`,
    email: `${name}-${tag}@example.com`,
    firstName: name,
    lastName: 'L',
  });
  const [owner, admin, dev, stranger] = ['owner', 'admin', 'dev', 'stranger'].map(person) as [
    FakePerson,
    FakePerson,
    FakePerson,
    FakePerson,
  ];
  const [wsA, wsB, wsX] = [randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    const made = make();
    store = made.store;
    await made.arrange.addOrganisation(org);
    await made.arrange.addOrganisation(other);
    await made.arrange.addMember(org, owner, 'master_admin', new Date('2026-01-01'));
    await made.arrange.addMember(org, admin, 'account_admin', new Date('2026-01-02'));
    await made.arrange.addMember(org, dev, 'member', new Date('2026-01-03'));
    await made.arrange.addMember(other, stranger, 'master_admin', new Date('2026-01-04'));
    await made.arrange.addMember(other, dev, 'member', new Date('2026-01-05'));
    await made.arrange.addWorkspace({ id: wsB, organisationId: org, name: 'beta' });
    await made.arrange.addWorkspace({ id: wsA, organisationId: org, name: 'alpha' });
    await made.arrange.addWorkspace({ id: wsX, organisationId: other, name: 'theirs' });
  });

  it('pages the organisation’s members, sorted, with the total', async () => {
    const first = await store.page(org, page({ end: 2 }));
    expect(first.total).toBe(3);
    expect(first.rows.map((r) => r.firstName)).toEqual(['admin', 'dev']);
    const byJoined = await store.page(org, page({ sort: 'joinedAt', order: 'DESC' }));
    expect(byJoined.rows.map((r) => [r.firstName, r.organisationRole])).toEqual([
      ['dev', 'member'],
      ['admin', 'account_admin'],
      ['owner', 'master_admin'],
    ]);
    expect(byJoined.rows[0]!.joinedAt).toEqual(new Date('2026-01-03'));
  });

  it('sets, reads and lists workspace roles in the organisation’s workspaces by name', async () => {
    await store.setWorkspaceRole(wsB, dev.id, 'developer');
    await store.setWorkspaceRole(wsA, dev.id, 'viewer');
    await store.setWorkspaceRole(wsA, dev.id, 'project_admin');
    await store.setWorkspaceRole(wsX, dev.id, 'viewer');
    expect(await store.workspaceRoles(org, [dev.id, owner.id])).toEqual([
      { userId: dev.id, workspaceId: wsA, workspaceName: 'alpha', role: 'project_admin' },
      { userId: dev.id, workspaceId: wsB, workspaceName: 'beta', role: 'developer' },
    ]);
    expect(await store.workspaceRoles(org, [])).toEqual([]);
    expect(await store.workspaceRoleOf(wsA, dev.id)).toBe('project_admin');
    expect(await store.workspaceInOrganisation(org, wsX)).toBe(false);
    expect(await store.roleOf(org, stranger.id)).toBeNull();
  });

  it('adds to a workspace once, lists it with both roles, and removes', async () => {
    expect(await store.addToWorkspace(wsB, owner.id, 'viewer')).toBe(true);
    expect(await store.addToWorkspace(wsB, owner.id, 'developer')).toBe(false);
    const listed = await store.workspacePage(wsB, page({ sort: 'role' }));
    expect(listed.total).toBe(2);
    expect(listed.rows.map((r) => [r.firstName, r.role, r.organisationRole])).toEqual([
      ['dev', 'developer', 'member'],
      ['owner', 'viewer', 'master_admin'],
    ]);
    expect(await store.removeFromWorkspace(wsB, owner.id)).toBe(true);
    expect(await store.removeFromWorkspace(wsB, owner.id)).toBe(false);
  });

  it('changes roles unless no admin would remain', async () => {
    expect(await store.changeRole(org, stranger.id, 'member')).toBe('not_member');
    expect(await store.changeRole(org, admin.id, 'member')).toBe('done');
    expect(await store.changeRole(org, owner.id, 'member')).toBe('last_admin');
    expect(await store.changeRole(org, owner.id, null)).toBe('last_admin');
    expect(await store.changeRole(org, owner.id, 'account_admin')).toBe('done');
    expect(await store.roleOf(org, owner.id)).toBe('account_admin');
  });

  it('removal takes the person out of this organisation and its workspaces only', async () => {
    expect(await store.changeRole(org, dev.id, null)).toBe('done');
    expect(await store.roleOf(org, dev.id)).toBeNull();
    expect(await store.workspaceRoleOf(wsA, dev.id)).toBeNull();
    expect(await store.roleOf(other, dev.id)).toBe('member');
    expect(await store.workspaceRoleOf(wsX, dev.id)).toBe('viewer');
    expect((await store.page(org, page())).total).toBe(2);
  });
});
