import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { SqlConfigMapsStore as SqlConfigMapsStore } from './config-maps-store.js';
import type { ConfigMapsStore } from './config-maps-store-type.js';
import { FakeConfigMapsStore } from './fake-config-maps-store.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
const implementations: [string, () => ConfigMapsStore][] = [
  ['fake', () => new FakeConfigMapsStore()],
  ['SQL', () => new SqlConfigMapsStore(database.db())],
];
const query = (q: Partial<PipelineListQuery> = {}): PipelineListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

describe.each(implementations)('ConfigMapsStore contract: %s', (_name, make) => {
  let store: ConfigMapsStore;
  let ws: string;
  let other: string;
  const add = async (workspaceId: string, name: string, data: Record<string, string> = {}) => {
    const id = randomUUID();
    await store.insert({ id, workspaceId, name, data });
    return id;
  };

  beforeAll(async () => {
    store = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
  });

  it('reads back by id and name in its workspace only, with the defaults', async () => {
    const id = await add(ws, 'app', { LOG: 'debug' });
    expect(await store.get(ws, id)).toMatchObject({
      name: 'app',
      description: '',
      data: { LOG: 'debug' },
      createdBy: null,
    });
    expect(await store.findByName(ws, 'app')).toMatchObject({ id });
    expect(await store.get(other, id)).toBeNull();
    expect(await store.findByName(other, 'app')).toBeNull();
  });

  it('refuses a duplicate name in the workspace, on insert and rename', async () => {
    const b = await add(ws, 'b');
    expect(isUniqueViolation(await add(ws, 'app').catch((e: unknown) => e))).toBe(true);
    expect(isUniqueViolation(await store.update(b, { name: 'app' }).catch((e: unknown) => e))).toBe(true);
    await expect(add(other, 'app')).resolves.toBeTruthy();
    expect(await store.nameTaken(ws, 'b', b)).toBe(false);
  });

  it('pages, sorts and filters by name (literally), with the total; updates and deletes', async () => {
    await add(ws, 'a_b');
    const page = await store.list(ws, query({ _order: 'DESC', _end: 2 }));
    expect(page.rows.map((r) => r.name)).toEqual(['b', 'app']);
    expect(page.total).toBe(3);
    expect((await store.list(ws, query({ name: '_' }))).rows.map((r) => r.name)).toEqual(['a_b']);
    const b = (await store.findByName(ws, 'b'))!;
    await store.update(b.id, { data: { K: 'v' } });
    expect((await store.get(ws, b.id))!.data).toEqual({ K: 'v' });
    await store.delete(b.id);
    expect(await store.get(ws, b.id)).toBeNull();
  });
});
