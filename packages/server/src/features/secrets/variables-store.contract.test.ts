import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeVariablesStore } from './fake-variables-store.js';
import { SqlVariablesStore as SqlVariablesStore } from './variables-store.js';
import type { VariablesStore } from './variables-store-type.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
const implementations: [string, () => VariablesStore][] = [
  ['fake', () => new FakeVariablesStore()],
  ['SQL', () => new SqlVariablesStore(database.db())],
];

describe.each(implementations)('VariablesStore contract: %s', (_name, make) => {
  let store: VariablesStore;
  let ws: string;
  let other: string;
  const add = async (workspaceId: string, name: string, value = 'v') => {
    const id = randomUUID();
    await store.insert({ id, workspaceId, name, value });
    return id;
  };

  beforeAll(async () => {
    store = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
  });

  it('lists a workspace’s variables by name, reads them in it only', async () => {
    const region = await add(ws, 'REGION', 'eu');
    await add(ws, 'APP');
    await add(other, 'THEIRS');
    expect((await store.list(ws)).map((v) => v.name)).toEqual(['APP', 'REGION']);
    expect(await store.get(ws, region)).toMatchObject({ value: 'eu', description: '' });
    expect(await store.get(other, region)).toBeNull();
  });

  it('refuses a duplicate name in the workspace; updates and deletes', async () => {
    expect(isUniqueViolation(await add(ws, 'APP').catch((e: unknown) => e))).toBe(true);
    await expect(add(other, 'APP')).resolves.toBeTruthy();
    const [app, region] = await store.list(ws);
    expect(await store.nameTaken(ws, 'APP', app!.id)).toBe(false);
    expect(isUniqueViolation(await store.update(region!.id, { name: 'APP' }).catch((e: unknown) => e))).toBe(
      true,
    );
    await store.update(region!.id, { value: 'us' });
    expect((await store.get(ws, region!.id))!.value).toBe('us');
    await store.delete(region!.id);
    expect((await store.list(ws)).map((v) => v.name)).toEqual(['APP']);
  });
});
