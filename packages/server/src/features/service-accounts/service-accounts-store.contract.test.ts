import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeServiceAccountsStore } from './fake-service-accounts-store.js';
import { SqlServiceAccountsStore as SqlServiceAccountsStore } from './service-accounts-store.js';
import type { ServiceAccountsStore } from './service-accounts-store-type.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
type Workspaces = (organisationId: string, ids: [string, string]) => void;
const implementations: [string, () => { store: ServiceAccountsStore; workspaces: Workspaces }][] = [
  [
    'fake',
    () => {
      const store = new FakeServiceAccountsStore();
      return {
        store,
        workspaces: (organisationId, ids) =>
          ids.forEach((id, i) => store.addWorkspace({ id, organisationId, name: `ws-${i}` })),
      };
    },
  ],
  ['SQL', () => ({ store: new SqlServiceAccountsStore(database.db()), workspaces: () => {} })],
];

describe.each(implementations)('ServiceAccountsStore contract: %s', (_name, make) => {
  let store: ServiceAccountsStore;
  let org: string;
  let other: string;
  let ws0: string;
  let ws1: string;
  let theirs: string;
  const account = (organisationId: string, name: string) => ({
    id: randomUUID(),
    organisationId,
    name,
    tokenPrefix: 'slw_sa_abcde',
    tokenHash: randomUUID(),
    createdBy: 'u1',
    expiresAt: new Date('2027-01-01T00:00:00Z'),
  });

  beforeAll(async () => {
    const made = make();
    store = made.store;
    const a = await seedOrganisation(database.db());
    const b = await seedOrganisation(database.db());
    made.workspaces(a.organisationId, a.workspaceIds);
    made.workspaces(b.organisationId, b.workspaceIds);
    [org, other, ws0, ws1, theirs] = [
      a.organisationId,
      b.organisationId,
      ...a.workspaceIds,
      b.workspaceIds[0],
    ];
  });

  it('creates an account with its workspace roles, listed by workspace name', async () => {
    const bot = account(org, 'bot');
    await store.create(bot, [
      { workspaceId: ws1, role: 'developer' },
      { workspaceId: ws0, role: 'viewer' },
    ]);
    expect(await store.get(org, bot.id)).toMatchObject({ name: 'bot', lastUsedAt: null, revokedAt: null });
    expect(await store.get(other, bot.id)).toBeNull();
    expect(await store.workspacesOf([bot.id])).toEqual([
      { serviceAccountId: bot.id, workspaceId: ws0, role: 'viewer' },
      { serviceAccountId: bot.id, workspaceId: ws1, role: 'developer' },
    ]);
    expect(await store.workspacesOf([])).toEqual([]);
  });

  it('refuses a taken name, or a workspace named twice, leaving nothing behind', async () => {
    expect(isUniqueViolation(await store.create(account(org, 'bot'), []).catch((e: unknown) => e))).toBe(
      true,
    );
    const twice = account(org, 'twice');
    const err = await store
      .create(twice, [
        { workspaceId: ws0, role: 'viewer' },
        { workspaceId: ws0, role: 'developer' },
      ])
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(await store.get(org, twice.id)).toBeNull();
    expect(await store.nameTaken(org, 'twice')).toBe(false);
    await expect(store.create(account(other, 'bot'), [])).resolves.toBeUndefined();
  });

  it('lists by name, knows its organisation’s workspaces, replaces roles and revokes', async () => {
    await store.create(account(org, 'alpha'), []);
    const listed = await store.list(org);
    expect(listed.map((r) => r.name)).toEqual(['alpha', 'bot']);
    expect(await store.workspacesInOrganisation(org, [ws0, theirs, 'nope'])).toEqual(new Set([ws0]));
    const bot = listed[1]!;
    await store.replaceWorkspaces(bot.id, [{ workspaceId: ws1, role: 'project_admin' }]);
    expect(await store.workspacesOf([bot.id])).toEqual([
      { serviceAccountId: bot.id, workspaceId: ws1, role: 'project_admin' },
    ]);
    await store.revoke(bot.id);
    expect((await store.get(org, bot.id))!.revokedAt).toBeInstanceOf(Date);
  });
});
