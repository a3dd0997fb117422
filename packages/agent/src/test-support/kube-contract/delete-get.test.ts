import { describe, expect, it } from 'vitest';
import {
  deploymentYaml,
  json,
  parseJsonStream,
  podRunning,
  podYaml,
  skipLine,
  uniqueNamespace,
  until,
  useTarget,
} from './harness.js';

/** Contract: delete (dry run, namespaces, cascading), get's output formats and watch. */
describe.skipIf(skipLine())('kubectl delete, get and watch against the API server', () => {
  // The test controllers schedule and run pods as a kubelet would (node, IP, Running).
  const ctx = useTarget('get', { controllers: true });
  const k = (...args: string[]) => ctx.t.kubectl([...args, '-n', ctx.ns]);
  const watch = (args: string[], onOutput: (stdout: string) => void) =>
    ctx.t.kubectl([...args, '-n', ctx.ns, '--watch', '--output-watch-events', '-o', 'json'], {
      until: (stdout) => {
        onOutput(stdout);
        return parseJsonStream(stdout).some((e) => e.type === 'DELETED');
      },
    });

  /** Creates a ConfigMap owned by another one; returns the owner's uid. */
  async function ownerAndChild(owner: string, child: string): Promise<void> {
    expect((await k('create', 'configmap', owner)).code).toBe(0);
    const uid = json(await k('get', 'configmap', owner, '-o', 'json')).metadata.uid as string;
    const manifest = ctx.t.file(
      `${child}.yaml`,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: child,
          namespace: ctx.ns,
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid, blockOwnerDeletion: true },
          ],
        },
      }),
    );
    expect((await ctx.t.kubectl(['create', '-f', manifest])).code).toBe(0);
  }

  it('kubectl delete --dry-run=server says deleted but leaves the object and the namespace', async () => {
    const manifest = ctx.t.file('dry.yaml', deploymentYaml('dry', ctx.ns));
    expect((await ctx.t.kubectl(['apply', '-f', manifest])).code).toBe(0);
    const deleted = await k('delete', 'deployment', 'dry', '--dry-run=server');
    expect(deleted.stderr).toBe('');
    expect(deleted.stdout).toBe('deployment.apps "dry" deleted (server dry run)\n');
    expect((await k('get', 'deployment', 'dry', '-o', 'name')).stdout).toBe('deployment.apps/dry\n');
    const ns = await ctx.t.kubectl(['delete', 'namespace', ctx.ns, '--dry-run=server']);
    expect(ns.stdout).toBe(`namespace "${ctx.ns}" deleted (server dry run)\n`);
    const live = json(await ctx.t.kubectl(['get', 'namespace', ctx.ns, '-o', 'json']));
    expect(live.status.phase).toBe('Active');
    expect(live.metadata.deletionTimestamp).toBeUndefined();
    expect((await k('get', 'deployment', 'dry', '-o', 'name')).stdout).toBe('deployment.apps/dry\n');
  });

  it('kubectl delete namespace goes through Terminating, then the namespace and its contents are gone', async () => {
    const doomed = uniqueNamespace('doomed');
    expect((await ctx.t.kubectl(['create', 'namespace', doomed])).code).toBe(0);
    expect((await ctx.t.kubectl(['create', 'configmap', 'inside', '-n', doomed])).code).toBe(0);
    let out = '';
    const watching = ctx.t.kubectl(
      ['get', 'namespace', doomed, '--watch', '--output-watch-events', '-o', 'json'],
      {
        until: (stdout) => {
          out = stdout;
          return parseJsonStream(stdout).some((e) => e.type === 'DELETED');
        },
      },
    );
    await until(() => out.includes('"ADDED"'), 10_000, 'the namespace watch to start');
    const deleted = await ctx.t.kubectl(['delete', 'namespace', doomed, '--wait=false']);
    expect(deleted.stdout).toBe(`namespace "${doomed}" deleted\n`);
    await watching;
    const events = parseJsonStream<{ type: string; object: { status: { phase: string } } }>(out);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { status: { phase: 'Active' } } });
    expect(events.some((e) => e.type === 'MODIFIED' && e.object.status.phase === 'Terminating')).toBe(true);
    expect(events.at(-1)?.type).toBe('DELETED');
    const gone = await ctx.t.kubectl(['get', 'namespace', doomed]);
    expect(gone.stderr).toBe(`Error from server (NotFound): namespaces "${doomed}" not found\n`);
    const contents = await ctx.t.kubectl(['get', 'configmaps', '-n', doomed, '-o', 'name']);
    expect(contents.stdout).toBe('');
  });

  it('kubectl delete --cascade=background deletes the owner at once and garbage-collects its dependents', async () => {
    await ownerAndChild('owner-bg', 'child-bg');
    const deleted = await k('delete', 'configmap', 'owner-bg', '--cascade=background');
    expect(deleted.stdout).toBe('configmap "owner-bg" deleted\n');
    await until(async () => (await k('get', 'configmap', 'child-bg')).code === 1, 10_000, 'child-bg to go');
  });

  it('kubectl delete --cascade=orphan keeps the dependents and drops their owner reference', async () => {
    await ownerAndChild('owner-or', 'child-or');
    const deleted = await k('delete', 'configmap', 'owner-or', '--cascade=orphan');
    expect(deleted.stdout).toBe('configmap "owner-or" deleted\n');
    expect((await k('get', 'configmap', 'owner-or')).code).toBe(1);
    await until(
      async () => !json(await k('get', 'configmap', 'child-or', '-o', 'json')).metadata.ownerReferences,
      10_000,
      'the owner reference to be dropped',
    );
  });

  it('kubectl delete --cascade=foreground deletes the dependents before the owner', async () => {
    await ownerAndChild('owner-fg', 'child-fg');
    let seen = '';
    const watching = watch(['get', 'configmap', 'owner-fg'], (stdout) => (seen = stdout));
    await until(() => seen.includes('"ADDED"'), 10_000, 'the watch to start');
    const deleted = await k('delete', 'configmap', 'owner-fg', '--cascade=foreground');
    expect(deleted.stdout).toBe('configmap "owner-fg" deleted\n');
    await watching;
    // By the time the owner is gone, so is its blocking dependent.
    expect((await k('get', 'configmap', 'child-fg')).code).toBe(1);
    const events = parseJsonStream<{ type: string; object: { metadata: { finalizers?: string[] } } }>(seen);
    expect(
      events.some(
        (e) => e.type === 'MODIFIED' && e.object.metadata.finalizers?.includes('foregroundDeletion'),
      ),
    ).toBe(true);
  });

  it('kubectl get prints the pod and deployment tables with their real columns', async () => {
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('table-pod.yaml', podYaml('table-pod', ctx.ns))]);
    await podRunning(ctx.t, ctx.ns, 'table-pod');
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('table.yaml', deploymentYaml('table', ctx.ns))]);
    const pods = await k('get', 'pods', 'table-pod');
    expect(pods.stderr).toBe('');
    expect(pods.stdout).toMatch(
      /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\ntable-pod\s+1\/1\s+Running\s+0\s+\d+s\n$/,
    );
    const deployments = await k('get', 'deployments', 'table');
    expect(deployments.stdout).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\ntable\s+\d\/1\s+\d\s+\d\s+\d+s\n$/,
    );
    const none = await k('get', 'statefulsets');
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(`No resources found in ${ctx.ns} namespace.\n`);
    const everywhere = await ctx.t.kubectl(['get', 'deployments', '-A']);
    expect(everywhere.stdout).toMatch(/^NAMESPACE\s+NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/);
    expect(everywhere.stdout).toMatch(new RegExp(`\\n${ctx.ns}\\s+table\\s+\\d/1\\s`));
  });

  it('kubectl get -o json and -o yaml print the full objects (a List for several)', async () => {
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('out.yaml', deploymentYaml('out', ctx.ns))]);
    const list = json(await k('get', 'deployments', '-o', 'json'));
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' } });
    expect(list.items.map((d: { metadata: { name: string } }) => d.metadata.name)).toContain('out');
    expect(list.items[0]).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
    const yaml = await k('get', 'deployment', 'out', '-o', 'yaml');
    expect(yaml.stdout).toMatch(/^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n/);
    expect(yaml.stdout).toContain(`  name: out\n  namespace: ${ctx.ns}\n`);
    expect(yaml.stdout).toMatch(/\n {8}- containerPort: 8080\n/);
  });

  it("kubectl get -o wide adds a deployment's containers, images and selector, and a pod's IP and node", async () => {
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('wide-pod.yaml', podYaml('wide-pod', ctx.ns))]);
    await podRunning(ctx.t, ctx.ns, 'wide-pod');
    const pod = await k('get', 'pod', 'wide-pod', '-o', 'wide');
    expect(pod.stdout).toMatch(
      /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES\nwide-pod\s+1\/1\s+Running\s+0\s+\d+s\s+\d+\.\d+\.\d+\.\d+\s+\S+\s+<none>\s+<none>\n$/,
    );
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('wide.yaml', deploymentYaml('wide', ctx.ns))]);
    const wide = await k('get', 'deployment', 'wide', '-o', 'wide');
    expect(wide.stderr).toBe('');
    expect(wide.stdout).toMatch(
      /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nwide\s+\d\/1\s+\d\s+\d\s+\d+s\s+app\s+nginx:1\.27\s+app=wide\n$/,
    );
  });

  it('kubectl get -l and --field-selector filter on the server, and an unknown field label is refused', async () => {
    await Promise.all([
      k('create', 'configmap', 'sel-web'),
      k('create', 'configmap', 'sel-api'),
      k('create', 'configmap', 'sel-none'),
    ]);
    await Promise.all([
      k('label', 'configmap', 'sel-web', 'tier=web'),
      k('label', 'configmap', 'sel-api', 'tier=api'),
    ]);
    expect((await k('get', 'configmaps', '-l', 'tier=web', '-o', 'name')).stdout).toBe('configmap/sel-web\n');
    expect((await k('get', 'configmaps', '-l', 'tier in (web,api)', '-o', 'name')).stdout).toBe(
      'configmap/sel-api\nconfigmap/sel-web\n',
    );
    expect((await k('get', 'configmaps', '-l', 'tier,tier!=web', '-o', 'name')).stdout).toBe(
      'configmap/sel-api\n',
    );
    const byName = await k('get', 'configmaps', '--field-selector', 'metadata.name=sel-none', '-o', 'name');
    expect(byName.stdout).toBe('configmap/sel-none\n');
    const refused = await k('get', 'configmaps', '--field-selector', 'data.x=1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('field label not supported: data.x');
  });

  it('kubectl get -w prints ADDED, MODIFIED and DELETED events as they happen', async () => {
    let out = '';
    const watching = watch(['get', 'configmaps', '-l', 'watched=yes'], (stdout) => (out = stdout));
    // kubectl lists first and then watches; with nothing to list there is no output to wait for.
    await until(() => ctx.t.server?.watchers() ?? 1, 10_000, 'the watch to start');
    if (!ctx.t.server) await new Promise((r) => setTimeout(r, 1000));
    expect((await k('create', 'configmap', 'watched')).code).toBe(0);
    expect((await k('label', 'configmap', 'watched', 'watched=yes')).code).toBe(0);
    expect((await k('annotate', 'configmap', 'watched', 'note=changed')).code).toBe(0);
    expect((await k('delete', 'configmap', 'watched')).code).toBe(0);
    await watching;
    const events = parseJsonStream<{
      type: string;
      object: { metadata: { name: string; resourceVersion: string } };
    }>(out);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'watched'],
      ['MODIFIED', 'watched'],
      ['DELETED', 'watched'],
    ]);
    // Every change, the delete too, moves the resourceVersion on.
    const versions = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(versions[1]).toBeGreaterThan(versions[0]!);
    expect(versions[2]).toBeGreaterThan(versions[1]!);
  });
});
