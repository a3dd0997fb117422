import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { json, skipLine, useTarget } from './harness.js';

/**
 * Contract: the real helm v3.17 installs, upgrades, rolls back and uninstalls a local chart
 * (chart/: a Deployment, a Service and a ConfigMap), keeping its releases in Secrets as it does on
 * any cluster. The checks run in order: each builds on the release the previous one left.
 */
const chart = fileURLToPath(new URL('./chart', import.meta.url));

interface Revision {
  revision: number;
  status: string;
  chart: string;
  app_version: string;
  description: string;
}

describe.skipIf(skipLine())('helm against the API server', () => {
  const ctx = useTarget('helm', { controllers: true });
  const helm = (...args: string[]) => ctx.t.helm([...args, '-n', ctx.ns], { timeoutMs: 30_000 });
  const k = (...args: string[]) => ctx.t.kubectl([...args, '-n', ctx.ns]);
  const message = async () =>
    json(await k('get', 'configmap', 'web-demo', '-o', 'json')).data.message as string;

  it('helm install creates the chart objects and records release 1 as deployed', async () => {
    const installed = await helm('install', 'web', chart);
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toMatch(
      new RegExp(
        `^NAME: web\nLAST DEPLOYED: .+\nNAMESPACE: ${ctx.ns}\nSTATUS: deployed\nREVISION: 1\nTEST SUITE: None\n$`,
      ),
    );
    const names = await k(
      'get',
      'deployment,service,configmap',
      '-l',
      'app.kubernetes.io/instance=web',
      '-o',
      'name',
    );
    expect(names.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'configmap/web-demo',
      'deployment.apps/web-demo',
      'service/web-demo',
    ]);
    const deployment = json(await k('get', 'deployment', 'web-demo', '-o', 'json'));
    expect(deployment.metadata.labels['app.kubernetes.io/managed-by']).toBe('Helm');
    expect(deployment.metadata.annotations['meta.helm.sh/release-name']).toBe('web');
    const service = json(await k('get', 'service', 'web-demo', '-o', 'json'));
    expect(service.spec).toMatchObject({
      type: 'ClusterIP',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 'http' }],
    });
    expect(service.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const secrets = await k('get', 'secrets', '-l', 'owner=helm,name=web', '-o', 'name');
    expect(secrets.stdout).toBe('secret/sh.helm.release.v1.web.v1\n');
  });

  it('helm list and helm status show the deployed release', async () => {
    const [list, status] = await Promise.all([
      helm('list', '-o', 'json'),
      helm('status', 'web', '-o', 'json'),
    ]);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        name: 'web',
        namespace: ctx.ns,
        revision: '1',
        status: 'deployed',
        chart: 'demo-0.1.0',
        app_version: '1.0.0',
      }),
    ]);
    expect(JSON.parse(status.stdout)).toMatchObject({
      name: 'web',
      namespace: ctx.ns,
      version: 1,
      info: { status: 'deployed', description: 'Install complete' },
    });
  });

  it('helm upgrade --wait with changed values changes the objects, waits for them and records release 2', async () => {
    const upgraded = await helm(
      'upgrade',
      'web',
      chart,
      '--set',
      'message=bye',
      '--set',
      'image=nginx:1.28',
      // --wait: helm returns once the new ReplicaSet's pods are ready.
      '--wait',
      '--timeout=30s',
    );
    expect(upgraded.stderr).toBe('');
    expect(upgraded.stdout).toMatch(/^Release "web" has been upgraded\. Happy Helming!\nNAME: web\n/);
    expect(upgraded.stdout).toContain('\nREVISION: 2\n');
    expect(await message()).toBe('bye');
    const deployment = json(await k('get', 'deployment', 'web-demo', '-o', 'json'));
    expect(deployment.spec.template.spec.containers[0].image).toBe('nginx:1.28');
    expect(deployment.metadata.generation).toBe(2);
    expect(deployment.status).toMatchObject({ updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 });
  });

  it('helm rollback restores the earlier values, and helm history lists every revision', async () => {
    const rolled = await helm('rollback', 'web', '1');
    expect(rolled.stderr).toBe('');
    expect(rolled.stdout).toBe('Rollback was a success! Happy Helming!\n');
    expect(await message()).toBe('hello');
    const history = JSON.parse((await helm('history', 'web', '-o', 'json')).stdout) as Revision[];
    expect(history.map((r) => [r.revision, r.status, r.description])).toEqual([
      [1, 'superseded', 'Install complete'],
      [2, 'superseded', 'Upgrade complete'],
      [3, 'deployed', 'Rollback to 1'],
    ]);
  });

  it('helm uninstall removes the release and every object it made', async () => {
    const removed = await helm('uninstall', 'web');
    expect(removed.stderr).toBe('');
    expect(removed.stdout).toBe('release "web" uninstalled\n');
    const left = await k(
      'get',
      'deployment,service,configmap,secret',
      '-l',
      'app.kubernetes.io/instance=web',
      '-o',
      'name',
    );
    expect(left.stdout).toBe('');
    expect((await k('get', 'secrets', '-l', 'owner=helm', '-o', 'name')).stdout).toBe('');
    expect(JSON.parse((await helm('list', '-o', 'json')).stdout)).toEqual([]);
  });

  it('helm template piped to kubectl apply creates the same objects without a release', async () => {
    const rendered = await ctx.t.helm(['template', 'plain', chart, '-n', ctx.ns, '--set', 'message=piped']);
    expect(rendered.stderr).toBe('');
    const applied = await ctx.t.kubectl(['apply', '-n', ctx.ns, '-f', '-'], { input: rendered.stdout });
    expect(applied.stderr).toBe('');
    expect(applied.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'configmap/plain-demo created',
      'deployment.apps/plain-demo created',
      'service/plain-demo created',
    ]);
    expect(json(await k('get', 'configmap', 'plain-demo', '-o', 'json')).data.message).toBe('piped');
    expect(JSON.parse((await helm('list', '-o', 'json')).stdout)).toEqual([]);
  });
});
