import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users, workspaceMembers } from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeRolesStore } from './fake-roles-store.js';
import { RolesStore as SqlRolesStore } from './roles-store.js';
import type { RolesStore } from './roles-store-type.js';

/** The same cases over the fake and the SQL store (decision 030); in SQL a workspace member holds a role. */
const database = contractDatabase();
interface Subject {
  store: RolesStore;
  hold(roleId: string): Promise<void>;
  release(roleId: string): Promise<void>;
}
const implementations: [string, (workspaceId: () => string) => Subject][] = [
  [
    'fake',
    () => {
      const store = new FakeRolesStore();
      return { store, hold: async (id) => store.hold(id), release: async (id) => store.release(id) };
    },
  ],
  [
    'SQL',
    (workspaceId) => {
      const db = database.db();
      const userId = randomUUID();
      return {
        store: new SqlRolesStore(db),
        hold: async (role) => {
          await db
            .insert(users)
            .values({ id: userId, email: `${userId}@example.com`, firstName: 'F', lastName: 'L' });
          await db.insert(workspaceMembers).values({ workspaceId: workspaceId(), userId, role });
        },
        release: async (role) => {
          await db
            .delete(workspaceMembers)
            .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, role)));
        },
      };
    },
  ],
];
const role = (organisationId: string, name: string) => ({
  id: randomUUID(),
  organisationId,
  name,
  description: '',
  grants: [],
});

describe.each(implementations)('RolesStore contract: %s', (_name, make) => {
  let s: Subject;
  let org: string;
  let other: string;
  let ws: string;

  beforeAll(async () => {
    s = make(() => ws);
    const a = await seedOrganisation(database.db());
    const b = await seedOrganisation(database.db());
    [org, other, ws] = [a.organisationId, b.organisationId, a.workspaceIds[0]];
  });

  it('lists an organisation’s roles by name, reads them in it only', async () => {
    const ops = role(org, 'ops');
    await s.store.create(ops);
    await s.store.create(role(org, 'dev'));
    await s.store.create(role(other, 'theirs'));
    expect((await s.store.list(org)).map((r) => r.name)).toEqual(['dev', 'ops']);
    expect(await s.store.get(org, ops.id)).toMatchObject({ name: 'ops', grants: [] });
    expect(await s.store.get(other, ops.id)).toBeNull();
    expect(await s.store.customRoleExists(org, ops.id)).toBe(true);
    expect(await s.store.customRoleExists(other, ops.id)).toBe(false);
  });

  it('nameTaken ignores case; the unique index compares exactly', async () => {
    expect(await s.store.nameTaken(org, 'OPS')).toBe(true);
    expect(await s.store.nameTaken(other, 'ops')).toBe(false);
    const [ops] = (await s.store.list(org)).filter((r) => r.name === 'ops');
    expect(await s.store.nameTaken(org, 'Ops', ops!.id)).toBe(false);
    expect(isUniqueViolation(await s.store.create(role(org, 'ops')).catch((e: unknown) => e))).toBe(true);
    expect(
      isUniqueViolation(
        await s.store.update(ops!.id, { name: 'dev', description: '', grants: [] }).catch((e: unknown) => e),
      ),
    ).toBe(true);
  });

  it('deletes a role only while nobody holds it', async () => {
    const held = role(org, 'held');
    await s.store.create(held);
    await s.hold(held.id);
    expect(await s.store.deleteUnlessAssigned(org, held.id)).toBe(false);
    await s.release(held.id);
    expect(await s.store.deleteUnlessAssigned(org, held.id)).toBe(true);
    expect(await s.store.get(org, held.id)).toBeNull();
    expect(await s.store.deleteUnlessAssigned(org, held.id)).toBe(true);
  });
});
