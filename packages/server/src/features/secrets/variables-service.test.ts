import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { FakeVariablesStore } from './fake-variables-store.js';
import { VARIABLE_NAME_TAKEN, VariablesService } from './variables-service.js';

const WS = 'ws-a';
const OTHER = 'ws-b';

function setup() {
  const store = new FakeVariablesStore();
  return { store, service: new VariablesService(store) };
}

describe('VariablesService over the fake store', () => {
  it('creates variables, lists them by name and gives the run engine name → value', async () => {
    const { service } = setup();
    await service.create(WS, { name: 'REGION', value: 'eu' });
    await service.create(WS, { name: 'APP', value: 'shop', description: 'the app' });
    await service.create(OTHER, { name: 'THEIRS', value: 'x' });
    expect((await service.list(WS)).rows.map((v) => [v.name, v.description])).toEqual([
      ['APP', 'the app'],
      ['REGION', ''],
    ]);
    expect(await service.environment(WS)).toEqual({ APP: 'shop', REGION: 'eu' });
  });

  it('refuses a duplicate name in the workspace, on create and on rename', async () => {
    const { service } = setup();
    await service.create(WS, { name: 'A', value: '1' });
    const b = await service.create(WS, { name: 'B', value: '2' });
    await expect(service.create(WS, { name: 'A', value: '3' })).rejects.toThrow(
      new ConflictError(VARIABLE_NAME_TAKEN),
    );
    await expect(service.update(WS, b.id, { name: 'A' })).rejects.toThrow(
      new ConflictError(VARIABLE_NAME_TAKEN),
    );
    await expect(service.update(WS, b.id, { name: 'B', value: '22' })).resolves.toMatchObject({
      value: '22',
    });
    await expect(service.create(OTHER, { name: 'A', value: '1' })).resolves.toMatchObject({ name: 'A' });
  });

  it('answers 409 when the unique index refuses a name the check missed (a race)', async () => {
    const { service, store } = setup();
    await service.create(WS, { name: 'A', value: '1' });
    store.nameTaken = async () => false;
    await expect(service.create(WS, { name: 'A', value: '2' })).rejects.toThrow(VARIABLE_NAME_TAKEN);
  });

  it("never shows, changes or deletes another workspace's variable", async () => {
    const { service } = setup();
    const theirs = await service.create(OTHER, { name: 'X', value: '1' });
    const notFound = new NotFoundError('Variable not found');
    await expect(service.get(WS, theirs.id)).rejects.toThrow(notFound);
    await expect(service.update(WS, theirs.id, { value: '2' })).rejects.toThrow(notFound);
    await expect(service.remove(WS, theirs.id)).rejects.toThrow(notFound);
    await expect(service.get(OTHER, theirs.id)).resolves.toMatchObject({ value: '1' });
  });

  it('updates and removes', async () => {
    const { service } = setup();
    const v = await service.create(WS, { name: 'A', value: '1' });
    const updated = await service.update(WS, v.id, { value: '2' });
    expect(updated).toMatchObject({ name: 'A', value: '2' });
    await service.remove(WS, v.id);
    await expect(service.get(WS, v.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
