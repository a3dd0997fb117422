import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentCommandSchema, type AgentCommand } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandRunner, NamespacePolicy } from './commands.js';
import { KubeClient, loadKubeConfig } from './kube.js';
import { KubeApiServer } from './test-support/kube-api-server.js';

let api: KubeApiServer;
let kube: KubeClient;
let dir: string;
let runner: CommandRunner;
let limited: CommandRunner;

const run = (r: CommandRunner, command: AgentCommand) => r.run(agentCommandSchema.parse(command));

const deployment = (name: string, namespace?: string, labels: Record<string, string> = { app: name }) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, ...(namespace ? { namespace } : {}), labels },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
    },
  },
});

beforeAll(async () => {
  api = await KubeApiServer.start({
    token: 'kube-secret',
    gitVersion: 'v1.30.4',
    nodes: [
      { name: 'n1', cpu: '4' },
      { name: 'n2', cpu: '3500m' },
    ],
    kinds: [
      { group: 'tekton.dev', version: 'v1', kind: 'PipelineRun', plural: 'pipelineruns', namespaced: true },
    ],
  });
  dir = mkdtempSync(path.join(tmpdir(), 'agent-kube-'));
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(file, api.kubeconfig('kind-test'));
  kube = new KubeClient(loadKubeConfig({ kubeconfig: file, context: 'kind-test' }));
  runner = new CommandRunner(kube, new NamespacePolicy(false, []));
  limited = new CommandRunner(kube, new NamespacePolicy(true, ['ozone']));
  api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ozone' } });
  api.put({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'rancher.io/local-path',
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
  } as never);
});
afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the agent against a Kubernetes API (official client)', () => {
  it('reads the cluster facts for the hello', async () => {
    const facts = await kube.facts(null);
    expect(facts).toEqual({
      kubernetesVersion: 'v1.30.4',
      nodeCount: 2,
      totalVcpu: 7.5,
      namespaces: ['default', 'kube-public', 'kube-system', 'ozone'],
      installedAddons: ['tekton'],
      storageClasses: [
        {
          name: 'standard',
          provisioner: 'rancher.io/local-path',
          reclaimPolicy: 'Delete',
          bindingMode: 'WaitForFirstConsumer',
          default: true,
        },
      ],
    });
    expect(api.requests.filter((r) => r.path === '/version')).toHaveLength(1);
  });

  it('refuses a wrong token at the API server', async () => {
    const file = path.join(dir, 'bad');
    writeFileSync(file, api.kubeconfig().replace('kube-secret', 'wrong'));
    const bad = new KubeClient(loadKubeConfig({ kubeconfig: file }));
    await expect(bad.namespaces()).rejects.toThrow();
  });

  it('applies manifests server-side with the slipway field manager, then reads and lists them', async () => {
    const before = api.requests.length;
    const result = await run(runner, {
      kind: 'apply',
      args: {
        namespace: 'ozone',
        manifests: [
          deployment('web'),
          { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'fast' } },
        ],
      },
    });
    expect(result).toMatchObject({
      applied: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          namespace: 'ozone',
          uid: expect.any(String),
        },
        { kind: 'ConfigMap', name: 'settings', namespace: 'ozone' },
      ],
    });
    const patches = api.requests.slice(before).filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(2);
    expect(patches[0]).toMatchObject({
      path: '/apis/apps/v1/namespaces/ozone/deployments/web',
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: 'slipway' },
    });
    // The first apply never forces: conflicts are settled field by field (apply.ts).
    expect(patches[0]!.query.force).toBeUndefined();
    const stored = api.get('apps/v1', 'Deployment', 'web', 'ozone')!;
    expect(stored.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'slipway', operation: 'Apply' }),
    ]);

    // Applying again with a change updates the same object.
    await run(runner, {
      kind: 'apply',
      args: {
        namespace: 'ozone',
        manifests: [{ ...deployment('web'), spec: { ...deployment('web').spec, replicas: 3 } }],
      },
    });
    const again = api.get('apps/v1', 'Deployment', 'web', 'ozone')!;
    expect(again.metadata.uid).toBe(stored.metadata.uid);
    expect((again.spec as { replicas: number }).replicas).toBe(3);
    expect(again.metadata.generation).toBe(2);

    const got = await run(runner, {
      kind: 'get',
      args: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'ozone' },
    });
    expect(got).toMatchObject({
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
    });

    await run(runner, {
      kind: 'apply',
      args: {
        namespace: 'ozone',
        manifests: [deployment('api', undefined, { app: 'api', tier: 'backend' })],
      },
    });
    const listed = (await run(runner, {
      kind: 'list',
      args: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: 'ozone',
        labelSelector: 'tier in (backend)',
      },
    })) as { items: { kind: string; metadata: { name: string } }[] };
    expect(listed.items.map((i) => [i.kind, i.metadata.name])).toEqual([['Deployment', 'api']]);
    const page = (await run(runner, {
      kind: 'list',
      args: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ozone', limit: 1 },
    })) as { items: unknown[]; continue?: string };
    expect(page.items).toHaveLength(1);
    expect(page.continue).toBeTruthy();
  });

  it('applies custom resources found through discovery, and names kinds the cluster does not serve', async () => {
    await run(runner, {
      kind: 'apply',
      args: {
        manifests: [
          {
            apiVersion: 'tekton.dev/v1',
            kind: 'PipelineRun',
            metadata: { name: 'build-1', namespace: 'ozone' },
            spec: { pipelineRef: { name: 'build' } },
          },
        ],
      },
    });
    expect(api.get('tekton.dev/v1', 'PipelineRun', 'build-1', 'ozone')).toMatchObject({
      spec: { pipelineRef: { name: 'build' } },
    });
    const resources = (await run(runner, { kind: 'resources', args: {} })) as {
      resources: { apiVersion: string; kind: string; namespaced: boolean }[];
    };
    expect(resources.resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ apiVersion: 'tekton.dev/v1', kind: 'PipelineRun', namespaced: true }),
        expect.objectContaining({ apiVersion: 'v1', kind: 'Namespace', namespaced: false }),
      ]),
    );
    await expect(
      run(runner, {
        kind: 'get',
        args: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', name: 'x', namespace: 'ozone' },
      }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: 'The cluster does not serve Application in argoproj.io/v1alpha1',
    });
  });

  it('passes the API server errors on clearly, and applies nothing when one object is refused', async () => {
    await expect(
      run(runner, {
        kind: 'apply',
        args: {
          manifests: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'nowhere' } }],
        },
      }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'namespaces "nowhere" not found' });
    await expect(
      run(runner, {
        kind: 'get',
        args: { apiVersion: 'v1', kind: 'ConfigMap', name: 'absent', namespace: 'ozone' },
      }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: 'ConfigMap "absent" not found in namespace ozone',
    });

    await expect(
      run(limited, {
        kind: 'apply',
        args: {
          manifests: [
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ok', namespace: 'ozone' } },
            { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'no', namespace: 'kube-system' } },
          ],
        },
      }),
    ).rejects.toMatchObject({
      code: 'forbidden_namespace',
      message:
        'Namespace "kube-system" is not allowed: this limited agent works only in the namespaces ozone',
    });
    expect(api.get('v1', 'ConfigMap', 'ok', 'ozone')).toBeUndefined();
  });

  it('keeps a limited agent inside its namespaces', async () => {
    await expect(
      run(limited, { kind: 'list', args: { apiVersion: 'v1', kind: 'Secret', namespace: 'kube-system' } }),
    ).rejects.toMatchObject({ code: 'forbidden_namespace' });
    await expect(
      run(limited, { kind: 'list', args: { apiVersion: 'v1', kind: 'Node' } }),
    ).rejects.toMatchObject({
      code: 'forbidden_namespace',
      message:
        'Node is cluster-scoped and is not allowed: this limited agent works only in the namespaces ozone',
    });
    await expect(
      run(limited, {
        kind: 'delete',
        args: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' },
      }),
    ).rejects.toMatchObject({ code: 'forbidden_namespace' });
    // "All namespaces" means all of its allowed namespaces.
    const all = (await run(limited, {
      kind: 'list',
      args: { apiVersion: 'apps/v1', kind: 'Deployment' },
    })) as {
      items: { metadata: { namespace: string } }[];
    };
    expect(all.items.length).toBeGreaterThan(0);
    expect(new Set(all.items.map((i) => i.metadata.namespace))).toEqual(new Set(['ozone']));
    expect(await run(limited, { kind: 'namespaces', args: {} })).toEqual({ namespaces: ['ozone'] });
    expect(await kube.facts(['ozone'])).toMatchObject({ namespaces: ['ozone'] });
  });

  it('computes application health from the live objects', async () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'ozone' },
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace: 'ozone' },
    ];
    expect(await run(runner, { kind: 'health', args: { resources: refs } })).toMatchObject({
      status: 'progressing',
      resources: [{ health: { status: 'progressing' } }, { health: { status: 'healthy' } }],
    });
    api.setStatus('apps/v1', 'Deployment', 'ozone', 'web', {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
    });
    expect(await run(runner, { kind: 'health', args: { resources: refs } })).toMatchObject({
      status: 'healthy',
    });
    const missing = await run(runner, {
      kind: 'health',
      args: {
        resources: [...refs, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gone', namespace: 'ozone' }],
      },
    });
    expect(missing).toMatchObject({
      status: 'missing',
      resources: [{}, {}, { health: { status: 'missing' } }],
    });
  });

  it('lists events, newest first, optionally about one object', async () => {
    const event = (name: string, object: string, reason: string, at: string) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: 'ozone' },
      involvedObject: { kind: 'Pod', name: object },
      reason,
      message: `${reason} ${object}`,
      type: 'Normal',
      lastTimestamp: at,
      count: 1,
    });
    api.put(event('e1', 'web-1', 'Scheduled', '2026-01-01T10:00:00Z') as never);
    api.put(event('e2', 'web-1', 'Pulled', '2026-01-01T10:00:05Z') as never);
    api.put(event('e3', 'api-1', 'Scheduled', '2026-01-01T10:00:07Z') as never);
    const all = (await run(runner, { kind: 'events', args: { namespace: 'ozone' } })) as {
      events: { reason: string }[];
    };
    expect(all.events.map((e) => e.reason)).toEqual(['Scheduled', 'Pulled', 'Scheduled']);
    const one = (await run(runner, {
      kind: 'events',
      args: { namespace: 'ozone', involvedObject: { kind: 'Pod', name: 'web-1' } },
    })) as { events: { reason: string; involvedObject: { name: string } }[] };
    expect(one.events.map((e) => e.reason)).toEqual(['Pulled', 'Scheduled']);
  });

  it('deletes objects and reports when there was nothing to delete', async () => {
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings', namespace: 'ozone' };
    expect(await run(runner, { kind: 'delete', args: ref })).toEqual({ deleted: true });
    expect(api.get('v1', 'ConfigMap', 'settings', 'ozone')).toBeUndefined();
    expect(await run(runner, { kind: 'delete', args: ref })).toEqual({ deleted: false });
  });

  it('streams pod logs, following until the pod finishes', async () => {
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'task-1', namespace: 'ozone' },
      spec: {
        restartPolicy: 'Never',
        containers: [
          { name: 'step-build', image: 'alpine' },
          { name: 'step-push', image: 'alpine' },
        ],
      },
    });
    api.appendLog('ozone', 'task-1', 'step-build', 'compiling\n');
    let text = '';
    const handle = await kube.logs({ namespace: 'ozone', pod: 'task-1', follow: true }, (t) => (text += t));
    await expect.poll(() => api.followers('ozone', 'task-1', 'step-build')).toBe(1);
    api.appendLog('ozone', 'task-1', 'step-build', 'done\n');
    api.setPodPhase('ozone', 'task-1', 'Succeeded', {
      terminationMessages: { 'step-build': '{"digest":"sha256:1"}' },
    });
    await handle.done;
    expect(text).toBe('compiling\ndone\n');
    const pod = api.get('v1', 'Pod', 'task-1', 'ozone') as unknown as {
      status: { containerStatuses: { state: { terminated: { message: string } } }[] };
    };
    expect(pod.status.containerStatuses[0]!.state.terminated.message).toBe('{"digest":"sha256:1"}');
  });

  it('watches a kind and sees changes', async () => {
    const events: string[] = [];
    const watch = await kube.watch(
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'ozone', labelSelector: 'watched=yes' },
      (type, object) => events.push(`${type} ${object.metadata.name}`),
      () => undefined,
    );
    await expect.poll(() => api.watchers()).toBe(1);
    api.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w1', namespace: 'ozone', labels: { watched: 'yes' } },
    });
    api.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w2', namespace: 'ozone', labels: { watched: 'no' } },
    });
    api.put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'w1', namespace: 'ozone', labels: { watched: 'yes' } },
      data: { a: '1' },
    });
    await expect.poll(() => events).toEqual(['ADDED w1', 'MODIFIED w1']);
    watch.abort();
  });

  it('runs an exec session: output, input, resize and exit status', async () => {
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'shell', namespace: 'ozone' },
      spec: { containers: [{ name: 'main', image: 'alpine' }] },
    });
    let out = '';
    let exit: { exitCode: number } | null = null;
    const session = await kube.exec(
      { namespace: 'ozone', pod: 'shell', command: ['/bin/sh'], tty: true },
      (_channel, text) => (out += text),
      (status) => (exit = status),
    );
    session.stdin.write('echo hello\n');
    await expect.poll(() => out).toContain('hello\n');
    session.resize(120, 40);
    await expect.poll(() => out).toContain('resize 120x40');
    session.stdin.write('exit 3\n');
    await expect.poll(() => exit).toEqual(expect.objectContaining({ exitCode: 3 }));
  });
});
