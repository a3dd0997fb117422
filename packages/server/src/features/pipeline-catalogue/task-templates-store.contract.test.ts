import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakeTaskTemplatesStore } from './fake-task-templates-store.js';
import { SqlTaskTemplatesStore as SqlTaskTemplatesStore } from './task-templates-store.js';
import type { TaskTemplatesStore } from './task-templates-store-type.js';

/**
 * The same cases over the fake and the SQL store (decision 030). The SQL database is shared by
 * both runs and built-ins are global, so each run names its built-ins apart.
 */
const database = contractDatabase();
const implementations: [string, () => TaskTemplatesStore][] = [
  ['fake', () => new FakeTaskTemplatesStore()],
  ['SQL', () => new SqlTaskTemplatesStore(database.db())],
];

describe.each(implementations)('TaskTemplatesStore contract: %s', (_name, make) => {
  let store: TaskTemplatesStore;
  let ws: string;
  let other: string;
  const tag = randomUUID().slice(0, 8);
  const builtIn = `builtin-${tag}`;
  const add = async (workspaceId: string | null, name: string) => {
    const id = randomUUID();
    await store.insert({
      id,
      workspaceId,
      name,
      definition: 'kind: Task',
      format: 'yaml',
      builtIn: workspaceId === null,
    });
    return id;
  };

  beforeAll(async () => {
    store = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
  });

  it('a workspace sees the built-ins and its own, its own first, each by name', async () => {
    const b = await add(null, builtIn);
    await add(ws, 'zz-own');
    await add(ws, 'aa-own');
    await add(other, 'theirs');
    const mine = (await store.list(ws))
      .map((t) => t.name)
      .filter((n) => !n.startsWith('builtin-') || n === builtIn);
    expect(mine).toEqual(['aa-own', 'zz-own', builtIn]);
    expect(await store.get(other, b)).toMatchObject({ builtIn: true, version: 1, description: '' });
    expect(await store.findBuiltIn(builtIn)).toMatchObject({ id: b });
    expect(await store.findOwnByName(ws, 'theirs')).toBeNull();
    expect(await store.findOwnByName(other, 'theirs')).toMatchObject({ name: 'theirs' });
  });

  it('names are unique among a workspace’s own; built-ins (no workspace) are not compared', async () => {
    expect(isUniqueViolation(await add(ws, 'aa-own').catch((e: unknown) => e))).toBe(true);
    await expect(add(other, 'aa-own')).resolves.toBeTruthy();
    await expect(add(null, builtIn)).resolves.toBeTruthy();
    await expect(add(ws, builtIn)).resolves.toBeTruthy();
  });

  it('updates (stamping updatedAt) and deletes', async () => {
    const own = (await store.findOwnByName(ws, 'zz-own'))!;
    await store.update(own.id, { version: 2, definition: 'kind: Task # 2' });
    expect(await store.get(ws, own.id)).toMatchObject({ version: 2, definition: 'kind: Task # 2' });
    expect(isUniqueViolation(await store.update(own.id, { name: 'aa-own' }).catch((e: unknown) => e))).toBe(
      true,
    );
    await store.delete(own.id);
    expect(await store.get(ws, own.id)).toBeNull();
  });
});
