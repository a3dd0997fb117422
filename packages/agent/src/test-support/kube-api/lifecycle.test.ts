import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, configMap, eventually } from './test-client.js';

let k: TestClient;
beforeAll(async () => {
  k = await TestClient.start();
});
afterAll(async () => {
  await k?.close();
});

const CMS = '/api/v1/namespaces/default/configmaps';
const rv = () => k.api.store.resourceVersion;

describe('dry run', () => {
  it('answers create, update, patch, apply and delete as if done and changes nothing', async () => {
    const before = rv();
    const created = await k.post(`${CMS}?dryRun=All`, configMap('dry', 'default', { data: { a: '1' } }));
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({ name: 'dry', uid: expect.any(String) });
    expect(k.api.get('v1', 'ConfigMap', 'dry', 'default')).toBeUndefined();
    const applied = await k.call(
      'PATCH',
      `${CMS}/dry?dryRun=All&fieldManager=t`,
      configMap('dry'),
      'application/apply-patch+yaml',
    );
    expect(applied.status).toBe(201);
    expect(rv()).toBe(before);

    await k.post(CMS, configMap('dry', 'default', { data: { a: '1' } }));
    const stored = rv();
    const put = await k.put(`${CMS}/dry?dryRun=All`, configMap('dry', 'default', { data: { a: '2' } }));
    expect(put.body.data).toEqual({ a: '2' });
    const patched = await k.patch(`${CMS}/dry?dryRun=All`, { data: { a: '3' } });
    expect(patched.body.data).toEqual({ a: '3' });
    const byQuery = await k.del(`${CMS}/dry?dryRun=All`);
    expect(byQuery.body).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'dry', kind: 'configmaps' },
    });
    const byBody = await k.del(`${CMS}/dry`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
    expect(byBody.status).toBe(200);
    expect(k.api.get('v1', 'ConfigMap', 'dry', 'default')?.data).toEqual({ a: '1' });
    expect(rv()).toBe(stored);
  });

  it('refuses to delete the system namespaces, dry run or not', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public']) {
      const res = await k.del(`/api/v1/namespaces/${ns}?dryRun=All`);
      expect(res.body).toMatchObject({
        code: 403,
        reason: 'Forbidden',
        message: `namespaces "${ns}" is forbidden: this namespace may not be deleted`,
        details: { name: ns, kind: 'namespaces' },
      });
    }
  });
});

describe('namespace lifecycle and finalizers', () => {
  it('terminates a namespace: Terminating, no new content, contents deleted, then gone', async () => {
    await k.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    await k.post(
      '/api/v1/namespaces/doomed/configmaps',
      configMap('held', 'doomed', { metadata: { name: 'held', finalizers: ['example.com/hold'] } }),
    );
    const deleted = await k.del('/api/v1/namespaces/doomed');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      kind: 'Namespace',
      metadata: { name: 'doomed', deletionTimestamp: expect.any(String) },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Terminating' },
    });
    const refused = await k.post('/api/v1/namespaces/doomed/configmaps', configMap('late', 'doomed'));
    expect(refused.body).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      details: {
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: 'namespace doomed is being terminated',
            field: 'metadata.namespace',
          },
        ],
      },
    });
    // The finalizer holds the ConfigMap (being deleted) and with it the namespace.
    await eventually(() => !!k.api.get('v1', 'ConfigMap', 'held', 'doomed')?.metadata.deletionTimestamp);
    await new Promise((r) => setTimeout(r, 50));
    expect(k.api.get('v1', 'Namespace', 'doomed')).toBeDefined();
    const held = (await k.get('/api/v1/namespaces/doomed/configmaps/held')).body;
    const added = await k.put('/api/v1/namespaces/doomed/configmaps/held', {
      ...held,
      metadata: { ...held.metadata, finalizers: ['example.com/hold', 'x/y'] },
    });
    expect(added.status).toBe(422);
    await k.put('/api/v1/namespaces/doomed/configmaps/held', {
      ...held,
      metadata: { ...held.metadata, finalizers: [] },
    });
    await eventually(() => k.api.get('v1', 'Namespace', 'doomed') === undefined);
    expect(k.api.get('v1', 'ConfigMap', 'held', 'doomed')).toBeUndefined();
  });
});

describe('garbage collection through ownerReferences', () => {
  async function family(owner: string) {
    const o = (await k.post(CMS, configMap(owner))).body;
    const ref = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: owner,
      uid: o.metadata.uid,
      blockOwnerDeletion: true,
    };
    await k.post(
      CMS,
      configMap(`${owner}-child`, 'default', {
        metadata: { name: `${owner}-child`, ownerReferences: [ref] },
      }),
    );
    const child = (await k.get(`${CMS}/${owner}-child`)).body;
    const childRef = { apiVersion: 'v1', kind: 'ConfigMap', name: `${owner}-child`, uid: child.metadata.uid };
    await k.post(
      CMS,
      configMap(`${owner}-grandchild`, 'default', {
        metadata: { name: `${owner}-grandchild`, ownerReferences: [childRef] },
      }),
    );
  }
  const exists = (name: string) => k.api.get('v1', 'ConfigMap', name, 'default') !== undefined;

  it('Background (the default) deletes the owner at once and its dependents after', async () => {
    await family('bg');
    expect((await k.del(`${CMS}/bg`)).body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect(exists('bg')).toBe(false);
    await eventually(() => !exists('bg-child') && !exists('bg-grandchild'));
  });

  it('Foreground holds the owner with the foregroundDeletion finalizer until its dependents are gone', async () => {
    await family('fg');
    const res = await k.del(`${CMS}/fg`, {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Foreground',
    });
    expect(res.body.metadata).toMatchObject({
      finalizers: ['foregroundDeletion'],
      deletionTimestamp: expect.any(String),
    });
    expect(exists('fg')).toBe(true);
    await eventually(() => !exists('fg'));
    expect(exists('fg-child') || exists('fg-grandchild')).toBe(false);
  });

  it('Orphan keeps the dependents and drops their owner reference', async () => {
    await family('or');
    await k.del(`${CMS}/or?propagationPolicy=Orphan`);
    await eventually(() => !exists('or'));
    await new Promise((r) => setTimeout(r, 50));
    expect(k.api.get('v1', 'ConfigMap', 'or-child', 'default')?.metadata.ownerReferences).toBeUndefined();
    expect(exists('or-grandchild')).toBe(true);
  });
});

describe('a namespace waiting on finalizers', () => {
  it('says which resources and finalizers remain, as the namespace controller does', async () => {
    await k.post('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'waiting' },
    });
    await k.post(
      '/api/v1/namespaces/waiting/configmaps',
      configMap('held', 'waiting', { metadata: { name: 'held', finalizers: ['example.com/hold'] } }),
    );
    await k.del('/api/v1/namespaces/waiting');
    const conditions = () =>
      (
        k.api.get('v1', 'Namespace', 'waiting')?.status as {
          conditions?: { type: string; message: string }[];
        }
      )?.conditions ?? [];
    await eventually(() => conditions().length > 0);
    expect(conditions()).toContainEqual(
      expect.objectContaining({
        type: 'NamespaceContentRemaining',
        message: 'Some resources are remaining: configmaps. has 1 resource instances',
      }),
    );
    expect(conditions()).toContainEqual(
      expect.objectContaining({
        type: 'NamespaceFinalizersRemaining',
        message:
          'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
      }),
    );
  });
});
