import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { organisations, workspaces } from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase } from '../../test-support/store-contract.js';
import { FakeInvitesStore } from './fake-invites-store.js';
import { FakeMembersStore } from './fake-members-store.js';
import { SqlInvitesStore as SqlInvitesStore } from './invites-store.js';
import type { InvitesStore } from './invites-store-type.js';
import { SqlMembersStore as SqlMembersStore } from './members-store.js';
import type { MembersStore } from './members-store-type.js';

/** The same cases over the fakes and the SQL stores (decision 030): what pending means, and accepting once. */
const database = contractDatabase();
interface Subject {
  store: InvitesStore;
  members: MembersStore;
  addOrganisation(id: string, name: string, workspaceId: string): Promise<void>;
}
const implementations: [string, () => Subject][] = [
  [
    'fakes',
    () => {
      const members = new FakeMembersStore();
      const store = new FakeInvitesStore(members);
      return {
        store,
        members,
        addOrganisation: async (id, name, workspaceId) => {
          store.addOrganisation(id, name);
          members.addWorkspace({ id: workspaceId, organisationId: id, name: 'main' });
        },
      };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlInvitesStore(database.db()),
      members: new SqlMembersStore(database.db()),
      addOrganisation: async (id, name, workspaceId) => {
        await database.db().insert(organisations).values({ id, name });
        await database.db().insert(workspaces).values({ id: workspaceId, organisationId: id, name: 'main' });
      },
    }),
  ],
];

describe.each(implementations)('InvitesStore contract: %s', (_name, make) => {
  let s: Subject;
  const org = randomUUID();
  const ws = randomUUID();
  const email = `new-${org.slice(0, 8)}@example.com`;
  const invite = (over: { email?: string; expiresAt?: Date; workspaceId?: string | null } = {}) => ({
    id: randomUUID(),
    organisationId: org,
    email,
    workspaceRole: over.workspaceId ? 'developer' : null,
    tokenHash: randomUUID(),
    invitedBy: 'u1',
    expiresAt: new Date(Date.now() + 86_400_000),
    ...over,
  });

  beforeAll(async () => {
    s = make();
    await s.addOrganisation(org, 'Acme', ws);
  });

  it('a new invite replaces the pending one for the address; expired ones are not pending', async () => {
    expect(await s.store.organisationName(org)).toBe('Acme');
    const first = invite();
    const second = invite({ workspaceId: ws });
    const expired = invite({ email: `old-${email}`, expiresAt: new Date(Date.now() - 1000) });
    await s.store.create(first);
    await s.store.create(second);
    await s.store.create(expired);
    expect((await s.store.listPending(org)).map((i) => i.id)).toEqual([second.id]);
    expect(await s.store.findPending(first.tokenHash)).toBeNull();
    expect(await s.store.findPending(expired.tokenHash)).toBeNull();
    expect(await s.store.findPending(second.tokenHash)).toMatchObject({
      organisationRole: 'member',
      acceptedAt: null,
    });
    expect(
      isUniqueViolation(
        await s.store.create({ ...invite(), tokenHash: second.tokenHash }).catch((e: unknown) => e),
      ),
    ).toBe(true);
  });

  it('revokes a pending invite of its organisation only', async () => {
    const mine = invite({ email: `revoke-${email}` });
    await s.store.create(mine);
    expect(await s.store.revoke(randomUUID(), mine.id)).toBe(false);
    expect(await s.store.revoke(org, mine.id)).toBe(true);
    expect(await s.store.revoke(org, mine.id)).toBe(false);
  });

  it('accepting creates the person with their memberships, once', async () => {
    const [pending] = await s.store.listPending(org);
    const person = { id: randomUUID(), email, firstName: 'New', lastName: 'Person', passwordHash: 'hash' };
    const accepted = await s.store.accept(pending!.tokenHash, { create: person });
    expect(accepted).toMatchObject({ id: pending!.id });
    expect(accepted!.acceptedAt).toBeInstanceOf(Date);
    expect(await s.store.accept(pending!.tokenHash, { userId: person.id })).toBeNull();
    expect(await s.members.roleOf(org, person.id)).toBe('member');
    expect(await s.members.workspaceRoleOf(ws, person.id)).toBe('developer');
    expect(await s.store.isMember(org, email)).toBe(true);
    expect(await s.store.isMember(org, `nobody-${email}`)).toBe(false);
  });

  it('an e-mail already taken is a unique violation, and the invite stays pending', async () => {
    const again = invite({ email: `second-${email}` });
    await s.store.create(again);
    const clash = { id: randomUUID(), email, firstName: 'X', lastName: 'Y', passwordHash: 'h' };
    expect(
      isUniqueViolation(await s.store.accept(again.tokenHash, { create: clash }).catch((e: unknown) => e)),
    ).toBe(true);
    expect(await s.store.findPending(again.tokenHash)).toMatchObject({ id: again.id });
  });
});
