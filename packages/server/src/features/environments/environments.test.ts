import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGES,
  TOTAL_COUNT_HEADER,
  type ClusterCreated,
  type Environment,
  type EnvironmentDetail,
} from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { memberOf } from '../pipeline-catalogue/catalogue-test-helpers.js';

describe('environments', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let clusterId: string;
  let limitedId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    const make = async (body: object) => {
      const res = await call('POST', '/api/clusters', owner, {
        type: 'gke',
        publicRegistryPrefix: 'gcr.io/acme',
        ...body,
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as ClusterCreated).cluster.id;
    };
    clusterId = await make({ name: 'main' });
    limitedId = await make({ name: 'limited', limitedAgentPermission: true, allowedNamespaces: ['ozone'] });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('every workspace starts with development, staging and production', async () => {
    const res = await call('GET', '/api/environments?_sort=name', stranger);
    expect(res.statusCode).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('3');
    expect((res.json() as Environment[]).map((e) => [e.name, e.type, e.clusterId])).toEqual([
      ['development', 'development', null],
      ['production', 'production', null],
      ['staging', 'staging', null],
    ]);
    // A workspace created in the organisation gets them too.
    const ws = await call('POST', '/api/workspaces', owner, { name: 'Team B' });
    expect(ws.statusCode, ws.body).toBe(201);
    const other = { ...owner.headers, 'x-workspace-id': (ws.json() as { id: string }).id };
    const list = await t.app.inject({ method: 'GET', url: '/api/environments', headers: other });
    expect((list.json() as Environment[]).map((e) => e.name).sort()).toEqual([
      'development',
      'production',
      'staging',
    ]);
  });

  it('binds an environment to a namespace of a cluster, and edits it', async () => {
    const res = await call('POST', '/api/environments', owner, {
      name: 'qa',
      description: 'Tests by hand',
      type: 'other',
      clusterId,
      namespace: 'qa',
    });
    expect(res.statusCode, res.body).toBe(201);
    const env = res.json() as EnvironmentDetail;
    expect(env).toMatchObject({
      name: 'qa',
      type: 'other',
      clusterId,
      clusterName: 'main',
      clusterStatus: 'attaching',
      namespace: 'qa',
      // tasks run in the cluster unless the environment says the server
      taskRunner: 'cluster',
      deployments: [],
    });
    const changed = await call('PUT', `/api/environments/${env.id}`, owner, { description: 'Manual QA' });
    expect(changed.json()).toMatchObject({ description: 'Manual QA', clusterId, namespace: 'qa' });
    const onServer = await call('PUT', `/api/environments/${env.id}`, owner, { taskRunner: 'server' });
    expect(onServer.json()).toMatchObject({ taskRunner: 'server', clusterId, namespace: 'qa' });
    const unbound = await call('PUT', `/api/environments/${env.id}`, owner, {
      clusterId: null,
      namespace: null,
    });
    expect(unbound.json()).toMatchObject({ clusterId: null, namespace: null, clusterName: null });
    expect((await call('POST', '/api/environments', owner, { name: 'qa', type: 'other' })).statusCode).toBe(
      409,
    );
  });

  it("refuses bad input with the spec's messages", async () => {
    const cases: Array<[object, string, string]> = [
      [{ type: 'staging' }, 'body.name', MESSAGES.nameRequired],
      [{ name: 'x1' }, 'body.type', MESSAGES.typeRequired],
      [{ name: 'x1', type: 'staging', clusterId }, 'body.namespace', MESSAGES.namespaceRequired],
      [{ name: 'x1', type: 'staging', namespace: 'shop' }, 'body.clusterId', MESSAGES.clusterRequired],
      [
        { name: 'x1', type: 'staging', clusterId, namespace: 'Bad_NS' },
        'body.namespace',
        'Namespace must be',
      ],
      [
        { name: 'x1', type: 'staging', clusterId: 'nope', namespace: 'a' },
        'body.clusterId',
        'no such cluster',
      ],
      [
        { name: 'x1', type: 'staging', clusterId: limitedId, namespace: 'shop' },
        'body.namespace',
        'shop is not an allowed namespace of this limited agent',
      ],
      [{ name: 'x1', type: 'staging', taskRunner: 'laptop' }, 'body.taskRunner', 'Task runner must be'],
    ];
    for (const [body, path, message] of cases) {
      const res = await call('POST', '/api/environments', owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const err = res.json() as { details: { path: string; message: string }[] };
      expect(err.details).toContainEqual({ path, message: expect.stringContaining(message) });
    }
    const ok = await call('POST', '/api/environments', owner, {
      name: 'ozone-env',
      type: 'development',
      clusterId: limitedId,
      namespace: 'ozone',
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("keeps other workspaces' environments apart and checks permissions", async () => {
    const [env] = (await call('GET', '/api/environments', owner)).json() as Environment[];
    expect((await call('GET', `/api/environments/${env!.id}`, stranger)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/environments/${env!.id}`, stranger)).statusCode).toBe(404);
    // Another workspace's cluster cannot be bound.
    const res = await call('POST', '/api/environments', stranger, {
      name: 'steal',
      type: 'other',
      clusterId,
      namespace: 'x',
    });
    expect(res.statusCode).toBe(400);
    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    expect((await call('GET', `/api/environments/${env!.id}`, viewer)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/environments/${env!.id}`, viewer)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/environments/${env!.id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/environments/${env!.id}`, owner)).statusCode).toBe(404);
  });

  it('removing a cluster leaves its environments, unbound', async () => {
    const created = await call('POST', '/api/clusters', owner, {
      name: 'temp',
      type: 'other',
      publicRegistryPrefix: 'docker.io/acme',
    });
    const tempId = (created.json() as ClusterCreated).cluster.id;
    const env = (
      await call('POST', '/api/environments', owner, {
        name: 'tmp',
        type: 'other',
        clusterId: tempId,
        namespace: 'a',
      })
    ).json() as EnvironmentDetail;
    expect((await call('DELETE', `/api/clusters/${tempId}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/environments/${env.id}`, owner)).json()).toMatchObject({
      clusterId: null,
    });
  });
});
