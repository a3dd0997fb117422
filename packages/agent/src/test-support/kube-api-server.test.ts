import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApiServer, parseLabelSelector } from './kube-api-server.js';

let api: KubeApiServer;
const auth = { authorization: 'Bearer t0k' };

beforeAll(async () => {
  api = await KubeApiServer.start({ token: 't0k' });
});
afterAll(async () => {
  await api?.close();
});

const call = async (method: string, path: string, body?: unknown, contentType = 'application/json') => {
  const res = await fetch(api.url + path, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': contentType } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('the test Kubernetes API server', () => {
  it('requires the bearer token when it has one', async () => {
    const res = await fetch(`${api.url}/api/v1/namespaces`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('serves discovery for core and groups', async () => {
    expect((await call('GET', '/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const groups = (await call('GET', '/apis')).body as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining([
        'apps',
        'batch',
        'networking.k8s.io',
        'rbac.authorization.k8s.io',
        'storage.k8s.io',
      ]),
    );
    const apps = (await call('GET', '/apis/apps/v1')).body as {
      resources: { name: string; namespaced: boolean }[];
    };
    expect(apps.resources).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'deployments', namespaced: true })]),
    );
    expect((await call('GET', '/apis/tekton.dev/v1')).status).toBe(404);
    api.addKind({ group: 'tekton.dev', version: 'v1', kind: 'Task', plural: 'tasks', namespaced: true });
    expect((await call('GET', '/apis/tekton.dev/v1')).status).toBe(200);
  });

  it('creates, refuses duplicates and objects in missing namespaces', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { tier: 'web' } } };
    const created = await call('POST', '/api/v1/namespaces/default/configmaps', cm);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      metadata: { namespace: 'default', uid: expect.any(String), resourceVersion: expect.any(String) },
    });
    expect((await call('POST', '/api/v1/namespaces/default/configmaps', cm)).body).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "a" already exists',
    });
    expect((await call('POST', '/api/v1/namespaces/nope/configmaps', cm)).body).toMatchObject({
      code: 404,
      message: 'namespaces "nope" not found',
    });
  });

  it('needs a field manager for server-side apply, and drops what the manager stops applying', async () => {
    const path = '/api/v1/namespaces/default/configmaps/b';
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { x: '1' } };
    expect((await call('PATCH', path, cm, 'application/apply-patch+yaml')).body).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    });
    expect(
      (await call('PATCH', `${path}?fieldManager=slipway`, cm, 'application/apply-patch+yaml')).status,
    ).toBe(201);
    const again = await call(
      'PATCH',
      `${path}?fieldManager=slipway`,
      { ...cm, data: { y: '2' } },
      'application/apply-patch+yaml',
    );
    expect(again.status).toBe(200);
    // As in Kubernetes: x was owned by this manager alone, which no longer applies it.
    expect(again.body.data).toEqual({ y: '2' });
  });

  it('lists with label selectors, without kind on the items, and replays a watch from a resource version', async () => {
    expect(parseLabelSelector('a=b,c!=d,e,!f,g in (x, y),h notin (z)')).toEqual([
      { key: 'a', op: 'eq', value: 'b' },
      { key: 'c', op: 'neq', value: 'd' },
      { key: 'e', op: 'exists' },
      { key: 'f', op: 'notexists' },
      { key: 'g', op: 'in', values: ['x', 'y'] },
      { key: 'h', op: 'notin', values: ['z'] },
    ]);
    const list = (await call('GET', '/api/v1/namespaces/default/configmaps?labelSelector=tier%3Dweb'))
      .body as {
      items: Record<string, unknown>[];
      metadata: { resourceVersion: string };
    };
    expect(list.items.map((i) => (i.metadata as { name: string }).name)).toEqual(['a']);
    expect(list.items[0]!.kind).toBeUndefined();

    const rv = list.metadata.resourceVersion;
    api.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' } });
    const controller = new AbortController();
    const res = await fetch(
      `${api.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`,
      {
        headers: auth,
        signal: controller.signal,
      },
    );
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    controller.abort();
    const events = new TextDecoder()
      .decode(value)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED c']);
  });
});
