import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  environments,
  organisations,
  serviceAccounts,
  serviceAccountWorkspaces,
} from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase } from '../../test-support/store-contract.js';
import { FakeOrganisationsStore } from './fake-organisations-store.js';
import { SqlOrganisationsStore as SqlOrganisationsStore } from './organisations-store.js';
import type { OrganisationsStore } from './organisations-store-type.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
interface Subject {
  store: OrganisationsStore;
  addOrganisation(id: string): Promise<void>;
  grant(serviceAccountId: string, organisationId: string, workspaceId: string, role: string): Promise<void>;
  environmentNames(workspaceId: string): Promise<string[]>;
}
const implementations: [string, () => Subject][] = [
  [
    'fake',
    () => {
      const store = new FakeOrganisationsStore();
      return {
        store,
        addOrganisation: async (id) => store.addOrganisation(id, 'org'),
        grant: async (sa, _org, ws, role) => store.grant(sa, ws, role),
        environmentNames: async (ws) => [...(store.environments.get(ws) ?? [])].sort(),
      };
    },
  ],
  [
    'SQL',
    () => {
      const db = database.db();
      const accounts = new Set<string>();
      return {
        store: new SqlOrganisationsStore(db),
        addOrganisation: async (id) => {
          await db.insert(organisations).values({ id, name: 'org' });
        },
        grant: async (serviceAccountId, organisationId, workspaceId, role) => {
          if (!accounts.has(serviceAccountId))
            await db.insert(serviceAccounts).values({
              id: serviceAccountId,
              organisationId,
              name: serviceAccountId,
              tokenPrefix: 'p',
              tokenHash: randomUUID(),
              createdBy: 'u1',
              expiresAt: new Date('2027-01-01'),
            });
          accounts.add(serviceAccountId);
          await db.insert(serviceAccountWorkspaces).values({ serviceAccountId, workspaceId, role });
        },
        environmentNames: async (ws) =>
          (
            await db
              .select({ name: environments.name })
              .from(environments)
              .where(eq(environments.workspaceId, ws))
          )
            .map((e) => e.name)
            .sort(),
      };
    },
  ],
];

describe.each(implementations)('OrganisationsStore contract: %s', (_name, make) => {
  let s: Subject;
  const org = randomUUID();
  const other = randomUUID();
  const [main, second] = [randomUUID(), randomUUID()];

  beforeAll(async () => {
    s = make();
    await s.addOrganisation(org);
    await s.addOrganisation(other);
  });

  it('creates a workspace with the default environments; names are unique in the organisation', async () => {
    await s.store.createWorkspace({ id: main, organisationId: org, name: 'main' });
    expect(await s.environmentNames(main)).toEqual(['development', 'production', 'staging']);
    expect(await s.store.workspace(org, main)).toMatchObject({ name: 'main', organisationId: org });
    expect(await s.store.workspace(other, main)).toBeNull();
    const dup = await s.store
      .createWorkspace({ id: randomUUID(), organisationId: org, name: 'main' })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(dup)).toBe(true);
    await expect(
      s.store.createWorkspace({ id: randomUUID(), organisationId: other, name: 'main' }),
    ).resolves.toBeUndefined();
    expect(await s.store.workspaceNameTaken(org, 'main')).toBe(true);
    expect(await s.store.workspaceNameTaken(org, 'main', main)).toBe(false);
  });

  it('renames, and never deletes the last workspace', async () => {
    expect(await s.store.deleteWorkspaceUnlessLast(org, main)).toBe(false);
    await s.store.createWorkspace({ id: second, organisationId: org, name: 'second' });
    await s.store.renameWorkspace(second, 'renamed');
    expect((await s.store.workspace(org, second))!.name).toBe('renamed');
    expect(await s.store.deleteWorkspaceUnlessLast(org, main)).toBe(true);
    expect(await s.store.workspace(org, main)).toBeNull();
    expect(await s.store.deleteWorkspaceUnlessLast(org, second)).toBe(false);
  });

  it('a service account’s workspaces with its role; updates the organisation', async () => {
    const sa = randomUUID();
    await s.grant(sa, org, second, 'viewer');
    expect(await s.store.serviceAccountWorkspaces(sa)).toEqual([
      { id: second, name: 'renamed', organisationId: org, role: 'viewer' },
    ]);
    await expect(s.store.update(org, { name: 'Acme', maxRunMinutes: 30 })).resolves.toBeUndefined();
  });
});
