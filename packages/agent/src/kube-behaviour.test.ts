import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PatchStrategy, type KubernetesObject as K8sObject } from '@kubernetes/client-node';
import { agentCommandSchema, type KubernetesObject } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentError } from './agent-error.js';
import { CommandRunner, NamespacePolicy } from './commands.js';
import { KubeClient, loadKubeConfig } from './kube.js';
import { KubeApiServer } from './test-support/kube-api-server.js';
import { REAL_CLUSTER, startTestCluster, type TestCluster } from './test-cluster.test-helper.js';
import { KeptWatch, type WatchEventType } from './watch.js';

/**
 * The agent's apply, watch and log paths against Kubernetes as it behaves: the test API server by
 * default, a real cluster with KUBECONFIG and SLIPWAY_REAL_CLUSTER=1 (docs/agent-real-cluster.md).
 * Checks that need to drive the API server by hand (dropping streams, compaction) run on the test
 * server only.
 */

let cluster: TestCluster;
let kube: KubeClient;
let ns: string;
const simulatedOnly = it.skipIf(REAL_CLUSTER);

beforeAll(async () => {
  cluster = await startTestCluster({ bookmarkIntervalMs: 60_000 }, { announce: true });
  kube = cluster.kube;
  ns = cluster.namespace;
});
afterAll(async () => {
  await cluster?.close();
});

const deployment = (name: string, replicas: number): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns, labels: { app: name } },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.9' }] },
    },
  },
});

/** A change made by someone else, as `kubectl edit` or `kubectl patch` makes it (an Update). */
async function mergePatch(object: KubernetesObject, manager: string): Promise<void> {
  await kube.objects.patch(
    object as K8sObject,
    undefined,
    undefined,
    manager,
    undefined,
    PatchStrategy.MergePatch,
  );
}

/** A server-side apply by another tool (`kubectl apply --server-side --force-conflicts`). */
async function applyAs(object: KubernetesObject, manager: string): Promise<void> {
  await kube.objects.patch(
    object as K8sObject,
    undefined,
    undefined,
    manager,
    true,
    PatchStrategy.ServerSideApply,
  );
}

const replicasOf = async (name: string) =>
  (
    (await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', name, namespace: ns }))?.spec as {
      replicas?: number;
    }
  )?.replicas;

const patchesTo = (name: string) =>
  (cluster.api?.requests ?? []).filter((r) => r.method === 'PATCH' && r.path.endsWith(`/${name}`));

describe('server-side apply as the slipway field manager', () => {
  it('applies without force and owns the fields it applied', async () => {
    await kube.apply(deployment('owned', 2), { force: false, dryRun: false });
    const live = await kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'owned', namespace: ns });
    const entry = (
      live?.metadata.managedFields as { manager: string; operation: string; fieldsV1: object }[]
    ).find((m) => m.manager === 'slipway' && m.operation === 'Apply');
    expect(entry?.fieldsV1).toMatchObject({ 'f:spec': { 'f:replicas': {} } });
    if (cluster.api) {
      expect(patchesTo('owned')).toEqual([
        expect.objectContaining({
          contentType: 'application/apply-patch+yaml',
          query: { fieldManager: 'slipway' },
        }),
      ]);
    }
  });

  it('takes back a field its own earlier update holds, with force', async () => {
    await kube.apply(deployment('own-update', 2), { force: false, dryRun: false });
    // An Update under Slipway's name (not its Apply) now holds .spec.replicas.
    await mergePatch(deployment('own-update', 5), 'slipway');
    const before = patchesTo('own-update').length;
    // Through the apply command the server sends, which reports what it took back.
    const runner = new CommandRunner(kube, new NamespacePolicy(false, []));
    const result = await runner.run(
      agentCommandSchema.parse({ kind: 'apply', args: { manifests: [deployment('own-update', 3)] } }),
    );
    expect(result).toMatchObject({
      applied: [{ name: 'own-update', tookBack: [{ field: '.spec.replicas', manager: 'slipway' }] }],
    });
    expect(await replicasOf('own-update')).toBe(3);
    if (cluster.api) {
      expect(
        patchesTo('own-update')
          .slice(before)
          .map((p) => p.query.force ?? 'none'),
      ).toEqual(['none', 'true']);
    }
  });

  it('will not overwrite a field another manager changed, and names it', async () => {
    await kube.apply(deployment('edited', 2), { force: false, dryRun: false });
    await mergePatch(deployment('edited', 5), 'kubectl-edit');
    const refused = await kube
      .apply(deployment('edited', 3), { force: false, dryRun: false })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AgentError);
    expect(refused).toMatchObject({
      code: 'conflict',
      message:
        'Deployment edited: field .spec.replicas is managed by "kubectl-edit"; Slipway will not overwrite it. ' +
        'Remove the field from the manifest, or take ownership in the cluster ' +
        `(kubectl apply --server-side --force-conflicts --field-manager=slipway -n ${ns} -f <manifest>)`,
    });
    expect(await replicasOf('edited')).toBe(5);
    // The manifest without the field applies; force takes the field.
    const { replicas: _drop, ...specWithout } = deployment('edited', 3).spec as Record<string, unknown>;
    await kube.apply({ ...deployment('edited', 3), spec: specWithout }, { force: false, dryRun: false });
    expect(await replicasOf('edited')).toBe(5);
    await kube.apply(deployment('edited', 3), { force: true, dryRun: false });
    expect(await replicasOf('edited')).toBe(3);
  });

  it('will not overwrite a field another applier holds', async () => {
    const settings = (mode: string): KubernetesObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: ns },
      data: { mode },
    });
    await kube.apply(settings('fast'), { force: false, dryRun: false });
    await applyAs(settings('slow'), 'helm');
    await expect(kube.apply(settings('fast'), { force: false, dryRun: false })).rejects.toThrow(
      /^ConfigMap settings: field \.data\.mode is managed by "helm"; Slipway will not overwrite it\./,
    );
    // A dry run meets the same conflict and changes nothing.
    await expect(kube.apply(settings('fast'), { force: false, dryRun: true })).rejects.toMatchObject({
      code: 'conflict',
    });
    const live = await kube.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace: ns });
    expect(live?.data).toEqual({ mode: 'slow' });
  });
});

/** A kept watch on the suite's ConfigMaps labelled `watched=<label>`, recording what it reports. */
function keep(
  client: KubeClient,
  namespace: string,
  label: string,
  backoffMs = 200,
  timeoutSeconds?: number,
) {
  const events: string[] = [];
  const restarts: string[] = [];
  const failures: unknown[] = [];
  const watch = new KeptWatch(
    client,
    { apiVersion: 'v1', kind: 'ConfigMap', namespace, labelSelector: `watched=${label}` },
    (type: WatchEventType, object) => events.push(`${type} ${object.metadata.name}`),
    (error) => failures.push(error),
    {
      backoff: { initialMs: backoffMs, maxMs: backoffMs },
      onRestart: (how) => restarts.push(how),
      ...(timeoutSeconds ? { timeoutSeconds } : {}),
    },
  );
  return { watch, events, restarts, failures };
}

const configMap = (name: string, label: string, data: Record<string, string> = {}): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, labels: { watched: label } },
  data,
});
const ref = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', name, namespace: ns });

describe('watches the agent keeps', () => {
  it('lists first, then watches with bookmarks from the list’s version', async () => {
    await kube.apply(configMap('w1', 'list'), { force: false, dryRun: false });
    const kept = keep(kube, ns, 'list');
    await kept.watch.start();
    await kube.apply(configMap('w2', 'list'), { force: false, dryRun: false });
    await kube.apply(configMap('w1', 'list', { a: '1' }), { force: false, dryRun: false });
    await kube.delete(ref('w2'));
    await expect.poll(() => kept.events).toEqual(['ADDED w1', 'ADDED w2', 'MODIFIED w1', 'DELETED w2']);
    kept.watch.stop();
    if (cluster.api) {
      const watches = cluster.api.requests.filter(
        (r) => r.query.watch === 'true' && r.path.endsWith('/configmaps'),
      );
      expect(watches.at(-1)?.query).toMatchObject({
        allowWatchBookmarks: 'true',
        resourceVersion: expect.any(String),
      });
      const timeout = Number(watches.at(-1)?.query.timeoutSeconds);
      expect(timeout).toBeGreaterThanOrEqual(300);
      expect(timeout).toBeLessThan(600);
    }
  });

  it('asks the API server to end each watch now and then, and carries on from where it was', async () => {
    const kept = keep(kube, ns, 'timeout', 200, 1);
    await kept.watch.start();
    await kube.apply(configMap('t1', 'timeout'), { force: false, dryRun: false });
    await expect.poll(() => kept.restarts, { timeout: 10_000 }).toContain('resume');
    await kube.apply(configMap('t2', 'timeout'), { force: false, dryRun: false });
    await expect.poll(() => kept.events).toEqual(['ADDED t1', 'ADDED t2']);
    expect(kept.restarts).not.toContain('relist');
    kept.watch.stop();
  });

  simulatedOnly('resumes from the last version it saw after the connection drops', async () => {
    const api = cluster.api!;
    const kept = keep(kube, ns, 'resume');
    await kept.watch.start();
    await kube.apply(configMap('r1', 'resume'), { force: false, dryRun: false });
    await expect.poll(() => kept.events).toEqual(['ADDED r1']);
    const seen = kept.watch.resourceVersion;
    api.dropStreams();
    await kube.apply(configMap('r1', 'resume', { b: '2' }), { force: false, dryRun: false });
    await kube.delete(ref('r1'));
    await expect.poll(() => kept.events).toEqual(['ADDED r1', 'MODIFIED r1', 'DELETED r1']);
    expect(kept.restarts).toEqual(['resume']);
    const resumed = api.requests.filter(
      (r) => r.query.watch === 'true' && r.query.labelSelector === 'watched=resume',
    );
    expect(resumed.at(-1)?.query.resourceVersion).toBe(seen);
    kept.watch.stop();
  });

  simulatedOnly('lists again after 410 Gone and reports the deletes it missed', async () => {
    const api = cluster.api!;
    await kube.apply(configMap('g1', 'gone'), { force: false, dryRun: false });
    await kube.apply(configMap('g2', 'gone'), { force: false, dryRun: false });
    // A long pause before reopening a watch that brought nothing: time to change things meanwhile.
    const kept = keep(kube, ns, 'gone', 4_000);
    await kept.watch.start();
    expect(kept.events).toEqual(['ADDED g1', 'ADDED g2']);
    await expect.poll(() => api.watchers()).toBeGreaterThan(0);
    api.dropStreams();
    await kube.delete(ref('g1'));
    await kube.apply(configMap('g2', 'gone', { c: '3' }), { force: false, dryRun: false });
    await kube.apply(configMap('g3', 'gone'), { force: false, dryRun: false });
    api.compact();
    await expect
      .poll(() => kept.events, { timeout: 10_000 })
      .toEqual(['ADDED g1', 'ADDED g2', 'MODIFIED g2', 'ADDED g3', 'DELETED g1']);
    expect(kept.restarts).toEqual(['resume', 'relist']);
    expect(kept.failures).toEqual([]);
    kept.watch.stop();
  });
});

describe('bookmarks', () => {
  simulatedOnly(
    'move the resume point on, so a quiet watch outlives compaction without a re-list',
    async () => {
      const api = await KubeApiServer.start({ bookmarkIntervalMs: 50 });
      const dir = mkdtempSync(path.join(tmpdir(), 'agent-bookmarks-'));
      try {
        writeFileSync(path.join(dir, 'kubeconfig'), api.kubeconfig('b'));
        const client = new KubeClient(
          loadKubeConfig({ kubeconfig: path.join(dir, 'kubeconfig'), context: 'b' }),
        );
        const kept = keep(client, 'default', 'quiet');
        await kept.watch.start();
        const opened = kept.watch.resourceVersion;
        // Changes the watch does not select move the store's version on.
        for (let i = 0; i < 3; i++) {
          api.put({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `other-${i}`, namespace: 'default' },
          });
        }
        await expect.poll(() => Number(kept.watch.resourceVersion)).toBeGreaterThan(Number(opened));
        api.compact();
        api.dropStreams();
        await expect.poll(() => kept.restarts).toEqual(['resume']);
        await expect.poll(() => api.watchers()).toBe(1);
        expect(kept.events).toEqual([]);
        kept.watch.stop();
      } finally {
        await api.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('pod logs', () => {
  simulatedOnly('reads the lines of the last sinceSeconds only, each with its RFC 3339 time', async () => {
    const api = cluster.api!;
    await kube.apply(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'talker', namespace: ns },
        spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }] },
      },
      { force: false, dryRun: false },
    );
    api.appendLog(ns, 'talker', 'main', 'early\n');
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    api.appendLog(ns, 'talker', 'main', 'one\ntwo\n');
    let text = '';
    const handle = await kube.logs(
      { namespace: ns, pod: 'talker', follow: false, sinceSeconds: 2, timestamps: true },
      (chunk) => (text += chunk),
    );
    await handle.done;
    const request = api.requests.filter((r) => r.path.endsWith('/pods/talker/log')).at(-1);
    expect(request?.query).toMatchObject({ sinceSeconds: '2', timestamps: 'true' });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const [i, line] of lines.entries()) {
      expect(line).toMatch(
        new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z ${['one', 'two'][i]}$`),
      );
    }
  });

  simulatedOnly('follows a log across a cut connection, without repeating or losing a line', async () => {
    const api = cluster.api!;
    await kube.apply(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'follower', namespace: ns },
        spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }] },
      },
      { force: false, dryRun: false },
    );
    api.appendLog(ns, 'follower', 'main', 'one\ntwo\n');
    let text = '';
    const handle = await kube.logs(
      { namespace: ns, pod: 'follower', follow: true },
      (chunk) => (text += chunk),
    );
    await expect.poll(() => text).toBe('one\ntwo\n');
    api.dropStreams();
    api.appendLog(ns, 'follower', 'main', 'three\n');
    await expect.poll(() => api.followers(ns, 'follower', 'main')).toBe(1);
    api.appendLog(ns, 'follower', 'main', 'four\n');
    await expect.poll(() => text).toBe('one\ntwo\nthree\nfour\n');
    const reopened = api.requests.filter((r) => r.path.endsWith('/pods/follower/log')).at(-1);
    expect(reopened?.query).toMatchObject({
      follow: 'true',
      timestamps: 'true',
      sinceTime: expect.any(String),
    });
    api.endLog(ns, 'follower', 'main');
    await handle.done;
    expect(text).toBe('one\ntwo\nthree\nfour\n');
  });

  it("passes on the API server's reason when a log cannot be read", async () => {
    await kube.apply(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'quiet', namespace: ns },
        spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }] },
      },
      { force: false, dryRun: false },
    );
    await expect(
      kube.logs({ namespace: ns, pod: 'quiet', container: 'nope', follow: false }, () => undefined),
    ).rejects.toMatchObject({ code: 'invalid', message: 'container nope is not valid for pod quiet' });
  });
});
