import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeSecretsStore } from './fake-secrets-store.js';
import { SqlSecretsStore as SqlSecretsStore } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

/**
 * One set of cases over both implementations (decision 030): what the service relies on of the
 * SQL store — scoping, uniqueness, paging — the fake must do too.
 */
const query = (q: Partial<PipelineListQuery> = {}): PipelineListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

const database = contractDatabase();

const implementations: [string, () => Promise<SecretsStore>][] = [
  ['fake', async () => new FakeSecretsStore()],
  ['SQL (PGlite, or PostgreSQL when DATABASE_URL is set)', async () => new SqlSecretsStore(database.db())],
];

describe.each(implementations)('SecretsStore contract: %s', (_name, make) => {
  let store: SecretsStore;
  let ws: string;
  let other: string;
  const add = (workspaceId: string, name: string, extra: { id?: string; createdAt?: Date } = {}) =>
    store.insert({
      id: extra.id ?? randomUUID(),
      workspaceId,
      name,
      valuesEncrypted: { value: 'sealed' },
      ...extra,
    });

  beforeAll(async () => {
    store = await make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
  });

  it('fills the defaults and reads back by id and by name, in its workspace only', async () => {
    const id = randomUUID();
    await add(ws, 'first', { id });
    const row = await store.get(ws, id);
    expect(row).toMatchObject({
      id,
      workspaceId: ws,
      name: 'first',
      description: '',
      type: 'generic',
      global: true,
    });
    expect(row?.createdAt).toBeInstanceOf(Date);
    expect(row?.createdBy).toBeNull();
    expect(await store.findByName(ws, 'first')).toMatchObject({ id });
    expect(await store.get(other, id)).toBeNull();
    expect(await store.findByName(other, 'first')).toBeNull();
  });

  it('refuses a duplicate name in a workspace with a unique violation; another workspace may use it', async () => {
    await add(ws, 'taken');
    const err = await add(ws, 'taken').catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    await expect(add(other, 'taken')).resolves.toBeUndefined();
    expect(await store.nameTaken(ws, 'taken')).toBe(true);
    expect(await store.nameTaken(ws, 'free')).toBe(false);
    const own = await store.findByName(ws, 'taken');
    expect(await store.nameTaken(ws, 'taken', own!.id)).toBe(false);
  });

  it('updates (stamping updatedAt) and refuses a rename onto a taken name', async () => {
    const id = randomUUID();
    await add(ws, 'to-update', { id, createdAt: new Date('2020-01-01T00:00:00Z') });
    await store.update(id, { description: 'changed', valuesEncrypted: { a: 'x' } });
    const row = await store.get(ws, id);
    expect(row).toMatchObject({ description: 'changed', valuesEncrypted: { a: 'x' } });
    expect(row!.updatedAt.getTime()).toBeGreaterThan(row!.createdAt.getTime());
    const err = await store.update(id, { name: 'first' }).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('pages, sorts and filters like the API promises, with the total of all pages', async () => {
    const page = await store.list(ws, query({ _start: 1, _end: 3 }));
    const all = (await store.list(ws, query())).rows.map((r) => r.name);
    expect(all).toEqual(['first', 'taken', 'to-update']);
    expect(page.rows.map((r) => r.name)).toEqual(['taken', 'to-update']);
    expect(page.total).toBe(3);
    const desc = await store.list(ws, query({ _order: 'DESC', _end: 1 }));
    expect(desc.rows.map((r) => r.name)).toEqual(['to-update']);
    const filtered = await store.list(ws, query({ name: 'T_K' }));
    expect(filtered.total).toBe(0);
    const found = await store.list(ws, query({ name: 'TAK' }));
    expect(found.rows.map((r) => r.name)).toEqual(['taken']);
    const byCreated = await store.list(ws, query({ _sort: 'createdAt', _end: 1 }));
    expect(byCreated.rows.map((r) => r.name)).toEqual(['to-update']);
    const unknownSort = await store.list(ws, query({ _sort: 'nonsense' }));
    expect(unknownSort.rows.map((r) => r.name)).toEqual(all);
  });

  it('deletes', async () => {
    const row = await store.findByName(other, 'taken');
    await store.delete(row!.id);
    expect(await store.get(other, row!.id)).toBeNull();
    expect((await store.list(other, query())).total).toBe(0);
  });
});
