import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONFIG_MAP_KEY_DOTS_MESSAGE,
  CONFIG_MAP_NAME_RULE_MESSAGE,
  TOTAL_COUNT_HEADER,
  type ConfigMap,
} from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited } from '../members/team.test-helper.js';
import { memberOf } from '../pipeline-catalogue/catalogue-test-helpers.js';
import { ConfigMapReader } from './config-map-reader.js';
import { SqlConfigMapsStore } from './config-maps-store.js';

describe('config maps', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let reader: ConfigMapReader;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    reader = new ConfigMapReader(new SqlConfigMapsStore(t.db.database.db));
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('creates a config map and answers its values, which the reader gives the run engine', async () => {
    const res = await call('POST', '/api/config-maps', owner, {
      name: 'app.settings',
      description: 'App',
      data: { LOG_LEVEL: 'debug', 'app.properties': 'a=1\nb=2\n' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as ConfigMap;
    expect(created).toMatchObject({
      name: 'app.settings',
      description: 'App',
      data: { LOG_LEVEL: 'debug', 'app.properties': 'a=1\nb=2\n' },
    });
    const got = await call('GET', `/api/config-maps/${created.id}`, owner);
    expect(got.json()).toEqual(created);
    expect(await reader.data(owner.workspaceId, 'app.settings')).toEqual(created.data);
    expect(await reader.data(owner.workspaceId, 'nope')).toBeNull();
    expect(await reader.data(stranger.workspaceId, 'app.settings')).toBeNull();
    await expectAudited(t, 'config_map.create', { target_type: 'config_map', target_id: created.id });
  });

  it('refuses bad names and keys with the rule, and a duplicate name with 409', async () => {
    const bad = await call('POST', '/api/config-maps', owner, { name: 'Bad..Name' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(CONFIG_MAP_NAME_RULE_MESSAGE);
    const dots = await call('POST', '/api/config-maps', owner, { name: 'dots', data: { '..': 'x' } });
    expect(dots.statusCode).toBe(400);
    expect(dots.json().message).toContain(CONFIG_MAP_KEY_DOTS_MESSAGE);
    expect((await call('POST', '/api/config-maps', owner, { name: 'empty' })).statusCode).toBe(201);
    const again = await call('POST', '/api/config-maps', owner, { name: 'empty', data: { a: 'b' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A config map with this name already exists');
  });

  it('lists with paging, X-Total-Count and a name search', async () => {
    for (const name of ['list-a', 'list-b', 'list-c'])
      await call('POST', '/api/config-maps', owner, { name, data: { k: name } });
    const page = await call('GET', '/api/config-maps?_start=0&_end=2&name=list-&_sort=name', owner);
    expect(page.statusCode).toBe(200);
    expect(page.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('3');
    expect((page.json() as ConfigMap[]).map((c) => c.name)).toEqual(['list-a', 'list-b']);
    const next = await call('GET', '/api/config-maps?_start=2&_end=4&name=list-&_sort=name', owner);
    expect((next.json() as ConfigMap[]).map((c) => [c.name, c.data])).toEqual([['list-c', { k: 'list-c' }]]);
    // A key every object has is not a column: the list sorts by name, as for any unknown _sort.
    const odd = await call('GET', '/api/config-maps?_start=0&_end=2&name=list-&_sort=constructor', owner);
    expect(odd.statusCode, odd.body).toBe(200);
    expect((odd.json() as ConfigMap[]).map((c) => c.name)).toEqual(['list-a', 'list-b']);
  });

  it('updates: data replaces every key, a taken name is 409', async () => {
    const { id } = (
      await call('POST', '/api/config-maps', owner, { name: 'to-change', data: { a: '1', b: '2' } })
    ).json() as ConfigMap;
    const res = await call('PUT', `/api/config-maps/${id}`, owner, {
      data: { b: '3', c: '4' },
      description: 'd',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'to-change', description: 'd', data: { b: '3', c: '4' } });
    expect((await call('PUT', `/api/config-maps/${id}`, owner, { description: 'e' })).json()).toMatchObject({
      description: 'e',
      data: { b: '3', c: '4' },
    });
    expect((await call('PUT', `/api/config-maps/${id}`, owner, { name: 'list-a' })).statusCode).toBe(409);
    const renamed = await call('PUT', `/api/config-maps/${id}`, owner, { name: 'changed' });
    expect(renamed.json()).toMatchObject({ name: 'changed' });
    await expectAudited(t, 'config_map.update', { target_type: 'config_map', target_id: id });
  });

  it('hides config maps across organisations and across workspaces of one organisation', async () => {
    const { id } = (
      await call('POST', '/api/config-maps', owner, { name: 'private', data: { k: 'v' } })
    ).json() as ConfigMap;
    for (const [method, payload] of [['GET'], ['PUT', { description: 'x' }], ['DELETE']] as const)
      expect((await call(method, `/api/config-maps/${id}`, stranger, payload)).statusCode).toBe(404);
    const strangerList = await call('GET', '/api/config-maps', stranger);
    expect(strangerList.json()).toEqual([]);
    expect(strangerList.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('0');
    // the same name in another organisation is no conflict
    expect((await call('POST', '/api/config-maps', stranger, { name: 'private' })).statusCode).toBe(201);

    const ws = await call('POST', '/api/workspaces', owner, { name: 'Team B' });
    expect(ws.statusCode, ws.body).toBe(201);
    const teamB = {
      ...owner,
      headers: { ...owner.headers, 'x-workspace-id': (ws.json() as { id: string }).id },
    };
    expect((await call('GET', `/api/config-maps/${id}`, teamB)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/config-maps/${id}`, teamB)).statusCode).toBe(404);
    expect((await call('GET', '/api/config-maps?name=private', teamB)).json()).toEqual([]);
    expect((await call('POST', '/api/config-maps', teamB, { name: 'private' })).statusCode).toBe(201);
    expect((await call('GET', `/api/config-maps/${id}`, owner)).json()).toMatchObject({ data: { k: 'v' } });
  });

  it('lets viewers read but not write, and deletes', async () => {
    const { id } = (await call('POST', '/api/config-maps', owner, { name: 'to-delete' })).json() as ConfigMap;
    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    expect((await call('GET', `/api/config-maps/${id}`, viewer)).statusCode).toBe(200);
    expect((await call('POST', '/api/config-maps', viewer, { name: 'viewer-one' })).statusCode).toBe(403);
    expect((await call('PUT', `/api/config-maps/${id}`, viewer, { description: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/config-maps/${id}`, viewer)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/config-maps/${id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/config-maps/${id}`, owner)).statusCode).toBe(404);
    await expectAudited(t, 'config_map.delete', { target_type: 'config_map', target_id: id });
  });
});
