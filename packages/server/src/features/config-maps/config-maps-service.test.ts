import { describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { ConfigMapReader } from './config-map-reader.js';
import { CONFIG_MAP_NAME_TAKEN, ConfigMapsService } from './config-maps-service.js';
import { FakeConfigMapsStore } from './fake-config-maps-store.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const query = (q: Partial<PipelineListQuery> = {}): PipelineListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

function setup() {
  const store = new FakeConfigMapsStore();
  return { store, service: new ConfigMapsService(store), reader: new ConfigMapReader(store) };
}

describe('ConfigMapsService over the fake store', () => {
  it('creates a config map with its values and defaults; the reader gives them by name', async () => {
    const { service, reader } = setup();
    const map = await service.create(WS, { name: 'app', data: { LOG_LEVEL: 'debug' } }, 'user-1');
    expect(map).toMatchObject({ name: 'app', description: '', data: { LOG_LEVEL: 'debug' } });
    expect(await reader.data(WS, 'app')).toEqual({ LOG_LEVEL: 'debug' });
    expect(await reader.data(OTHER, 'app')).toBeNull();
    const empty = await service.create(WS, { name: 'empty' }, null);
    expect(empty.data).toEqual({});
  });

  it('refuses a duplicate name in the workspace, on create and on rename; not across workspaces', async () => {
    const { service } = setup();
    await service.create(WS, { name: 'a' }, null);
    const b = await service.create(WS, { name: 'b' }, null);
    const conflict = new ConflictError(CONFIG_MAP_NAME_TAKEN);
    await expect(service.create(WS, { name: 'a' }, null)).rejects.toThrow(conflict);
    await expect(service.update(WS, b.id, { name: 'a' })).rejects.toThrow(conflict);
    await expect(service.update(WS, b.id, { name: 'b', description: 'kept' })).resolves.toMatchObject({
      description: 'kept',
    });
    await expect(service.create(OTHER, { name: 'a' }, null)).resolves.toMatchObject({ name: 'a' });
  });

  it('answers 409 when the unique index refuses a name the check missed (a race)', async () => {
    const { service, store } = setup();
    await service.create(WS, { name: 'a' }, null);
    store.nameTaken = async () => false;
    await expect(service.create(WS, { name: 'a' }, null)).rejects.toThrow(CONFIG_MAP_NAME_TAKEN);
  });

  it('data, when given, replaces the whole set of keys', async () => {
    const { service } = setup();
    const map = await service.create(WS, { name: 'm', data: { A: '1', B: '2' } }, null);
    expect((await service.update(WS, map.id, { description: 'd' })).data).toEqual({ A: '1', B: '2' });
    expect((await service.update(WS, map.id, { data: { C: '3' } })).data).toEqual({ C: '3' });
  });

  it("never shows, changes or deletes another workspace's config map", async () => {
    const { service } = setup();
    const theirs = await service.create(OTHER, { name: 'theirs' }, null);
    const notFound = new NotFoundError('Config map not found');
    await expect(service.get(WS, theirs.id)).rejects.toThrow(notFound);
    await expect(service.update(WS, theirs.id, { description: 'x' })).rejects.toThrow(notFound);
    await expect(service.remove(WS, theirs.id)).rejects.toThrow(notFound);
    expect(await service.list(WS, query())).toEqual({ rows: [], total: 0 });
    await service.remove(OTHER, theirs.id);
    await expect(service.get(OTHER, theirs.id)).rejects.toThrow(notFound);
  });

  it('lists a page sorted and filtered by name, with the total', async () => {
    const { service } = setup();
    for (const name of ['c', 'a', 'b', 'ab']) await service.create(WS, { name }, null);
    const page = await service.list(WS, query({ _start: 1, _end: 3 }));
    expect(page.rows.map((m) => m.name)).toEqual(['ab', 'b']);
    expect(page.total).toBe(4);
    const found = await service.list(WS, query({ name: 'A', _order: 'DESC' }));
    expect(found.rows.map((m) => m.name)).toEqual(['ab', 'a']);
  });
});
