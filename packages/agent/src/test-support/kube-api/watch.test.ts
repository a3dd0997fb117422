import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, configMap, eventually } from './test-client.js';

let k: TestClient;
beforeAll(async () => {
  k = await TestClient.start({ bookmarkIntervalMs: 50 });
});
afterAll(async () => {
  await k?.close();
});

const CMS = '/api/v1/namespaces/default/configmaps';

describe('resourceVersion and watch', () => {
  it('takes a new resourceVersion on every change, deletes too, and a resumed watch sees the delete', async () => {
    const created = await k.post(CMS, configMap('rv-a'));
    const rv1 = Number(created.body.metadata.resourceVersion);
    const updated = await k.patch(`${CMS}/rv-a`, { data: { x: '1' } });
    const rv2 = Number(updated.body.metadata.resourceVersion);
    expect(rv2).toBeGreaterThan(rv1);
    const watch = k.watch(`${CMS}?watch=true&resourceVersion=${rv2}`);
    expect((await k.del(`${CMS}/rv-a`)).status).toBe(200);
    await eventually(() => watch.events.length === 1);
    watch.stop();
    const [deleted] = watch.events;
    expect(deleted!.type).toBe('DELETED');
    expect(Number(deleted!.object.metadata.resourceVersion)).toBeGreaterThan(rv2);
    const list = await k.get(CMS);
    expect(Number(list.body.metadata.resourceVersion)).toBe(Number(deleted!.object.metadata.resourceVersion));
  });

  it('answers 410 Expired for a watch or an exact list from a compacted resourceVersion', async () => {
    const old = Number((await k.post(CMS, configMap('rv-b'))).body.metadata.resourceVersion);
    await k.post(CMS, configMap('rv-c'));
    const page = await k.get(`${CMS}?limit=1`);
    expect(page.body.metadata.continue).toEqual(expect.any(String));
    k.api.compact();
    const watch = k.watch(`${CMS}?watch=true&resourceVersion=${old}`);
    expect(await watch.ended).toBe('ended');
    expect(watch.events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: expect.stringMatching(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`)),
          reason: 'Expired',
          code: 410,
        },
      },
    ]);
    const exact = await k.get(`${CMS}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    expect(exact.body).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
    const resumed = await k.get(`${CMS}?limit=1&continue=${page.body.metadata.continue}`);
    expect(resumed.status).toBe(410);
    expect(resumed.body.message).toMatch(/^The provided continue parameter is too old/);
    // From the current resourceVersion a watch still works.
    expect(
      (await k.get(`${CMS}?resourceVersion=${k.api.store.resourceVersion}&resourceVersionMatch=Exact`))
        .status,
    ).toBe(200);
  });

  it('sends BOOKMARK events when asked and ends the watch after timeoutSeconds', async () => {
    const started = Date.now();
    const watch = k.watch(
      `${CMS}?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=${k.api.store.resourceVersion}`,
    );
    expect(await watch.ended).toBe('ended');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const bookmarks = watch.events.filter((e) => e.type === 'BOOKMARK');
    expect(bookmarks.length).toBeGreaterThan(2);
    expect(bookmarks[0]!.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(k.api.store.resourceVersion) },
    });
    expect(k.api.watchers()).toBe(0);
  });

  it('refuses sendInitialEvents as a 1.31 apiserver without the WatchList gate does', async () => {
    const res = await k.get(
      `${CMS}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    );
  });

  it('reports an object entering a selector as ADDED and leaving it as DELETED', async () => {
    await k.post(CMS, configMap('sel'));
    const watch = k.watch(
      `${CMS}?watch=true&labelSelector=tier%3Dweb&resourceVersion=${k.api.store.resourceVersion}`,
    );
    await eventually(() => k.api.watchers() > 0);
    await k.patch(`${CMS}/sel`, { metadata: { labels: { tier: 'web' } } });
    await k.patch(`${CMS}/sel`, { metadata: { annotations: { a: 'b' } } });
    await k.patch(`${CMS}/sel`, { metadata: { labels: { tier: 'api' } } });
    await eventually(() => watch.events.length === 3);
    watch.stop();
    expect(watch.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
  });

  it('refuses a field selector on a field the kind does not support', async () => {
    const res = await k.get(`${CMS}?fieldSelector=data.x%3D1`);
    expect(res.body).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: data.x',
    });
    expect((await k.get(`/api/v1/pods?fieldSelector=status.phase%3DRunning`)).status).toBe(200);
  });
});
