import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RepositoryListQuery } from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeRepositoriesStore } from './fake-repositories-store.js';
import { SqlRepositoriesStore } from './repositories-store.js';
import type { DeployTokenRow, RepositoriesStore } from './repositories-store-type.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
let seeded: { organisationId: string; workspaceIds: [string, string] };
const implementations: [string, () => RepositoriesStore][] = [
  ['fake', () => new FakeRepositoriesStore({ [seeded.workspaceIds[0]]: seeded.organisationId })],
  ['SQL', () => new SqlRepositoriesStore(database.db())],
];
const query = (q: Partial<RepositoryListQuery> = {}): RepositoryListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

beforeAll(async () => {
  seeded = await seedOrganisation(database.db());
});

describe.each(implementations)('RepositoriesStore contract: %s', (_name, make) => {
  let store: RepositoriesStore;
  let ws: string;
  let other: string;
  const add = async (workspaceId: string, name: string, kind = 'hosted') => {
    const id = randomUUID();
    await store.insert({
      id,
      workspaceId,
      name,
      kind,
      url: kind === 'external' ? `https://git.example/${name}` : null,
    });
    return id;
  };
  const token = (repositoryId: string, hash: string, at = new Date()): DeployTokenRow => ({
    id: randomUUID(),
    repositoryId,
    name: hash,
    access: 'read',
    tokenHash: `${hash}-${randomUUID()}`,
    createdBy: null,
    expiresAt: new Date(at.getTime() + 86_400_000),
    lastUsedAt: null,
    revokedAt: null,
    createdAt: at,
  });

  beforeAll(() => {
    store = make();
    [ws, other] = seeded.workspaceIds;
  });

  it('reads back in its workspace only, with the defaults, and refuses a duplicate name', async () => {
    const id = await add(ws, 'orders');
    expect(await store.get(ws, id)).toMatchObject({
      name: 'orders',
      kind: 'hosted',
      defaultBranch: 'main',
      lastPushAt: null,
    });
    expect(await store.findByName(ws, 'orders')).toMatchObject({ id });
    expect(await store.get(other, id)).toBeNull();
    expect(isUniqueViolation(await add(ws, 'orders').catch((e: unknown) => e))).toBe(true);
    await expect(add(other, 'orders')).resolves.toBeTruthy();
  });

  it('lists by name search and kind, sorted, with the total', async () => {
    await add(ws, 'billing-api');
    await add(ws, 'billing-web', 'external');
    const billing = await store.list(ws, query({ name: 'BILLING' }));
    expect(billing.rows.map((r) => r.name)).toEqual(['billing-api', 'billing-web']);
    expect(billing.total).toBe(2);
    const external = await store.list(ws, query({ repository_type_id: 'external' }));
    expect(external.rows.map((r) => r.name)).toEqual(['billing-web']);
    const page = await store.list(ws, query({ _sort: 'name', _order: 'DESC', _end: 1 }));
    expect(page.rows.map((r) => r.name)).toEqual(['orders']);
    expect(page.total).toBe(3);
  });

  it('keeps deploy tokens: newest first, found by hash, revoked once, used, and gone with the repository', async () => {
    const id = await add(ws, `tokens-${randomUUID().slice(0, 8)}`);
    const older = token(id, 'older', new Date(Date.now() - 60_000));
    const newer = token(id, 'newer');
    await store.insertToken(older);
    await store.insertToken(newer);
    expect((await store.tokens(id)).map((t) => t.name)).toEqual(['newer', 'older']);
    expect(await store.tokenByHash(older.tokenHash)).toMatchObject({ id: older.id });
    expect(await store.revokeToken(id, older.id, new Date())).toBe(true);
    expect(await store.revokeToken(id, older.id, new Date())).toBe(false);
    expect(await store.revokeToken(randomUUID(), newer.id, new Date())).toBe(false);
    const used = new Date();
    await store.tokenUsed(newer.id, used);
    expect((await store.tokenByHash(newer.tokenHash))?.lastUsedAt?.getTime()).toBe(used.getTime());
    await store.pushed(id, used);
    expect((await store.get(ws, id))?.lastPushAt?.getTime()).toBe(used.getTime());
    await store.delete(id);
    expect(await store.tokens(id)).toEqual([]);
    expect(await store.tokenByHash(newer.tokenHash)).toBeNull();
  });

  it('names the organisation of a workspace', async () => {
    expect(await store.organisationOf(ws)).toBe(seeded.organisationId);
  });
});
