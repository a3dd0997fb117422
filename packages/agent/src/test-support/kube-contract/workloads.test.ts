import { describe, expect, it } from 'vitest';
import { deploymentYaml, json, podRunning, podYaml, skipLine, until, useTarget } from './harness.js';

/**
 * Contract: logs, exec, rollouts, scale, auth can-i, label/annotate, wait and explain. On the test
 * server its test controllers stand in for the kubelet and the Deployment controller; the log
 * lines are appended through its test controls (on a real cluster the pods' scripts print them).
 */
describe.skipIf(skipLine())('kubectl on workloads against the API server', () => {
  const ctx = useTarget('work', { controllers: true });
  const k = (...args: string[]) => ctx.t.kubectl([...args, '-n', ctx.ns]);

  /** A running pod whose container has printed `lines` (on a real cluster, via its script). */
  async function podWithLogs(name: string, script: string, lines?: string): Promise<void> {
    const applied = await ctx.t.kubectl([
      'apply',
      '-f',
      ctx.t.file(`${name}.yaml`, podYaml(name, ctx.ns, script)),
    ]);
    expect(applied.stderr).toBe('');
    await podRunning(ctx.t, ctx.ns, name);
    if (ctx.t.server && lines) ctx.t.server.appendLog(ctx.ns, name, 'main', lines);
  }

  it('kubectl logs --timestamps stamps each line with its RFC 3339 time, --since and --tail leave older lines out', async () => {
    // The lines are more than 2 s apart, so --since can be chosen to fall between them however
    // long kubectl takes to start (up to 1 s) on a loaded machine.
    await podWithLogs('logs', 'sleep 4; echo old; sleep 3; echo new; sleep 3600', 'old\n');
    if (ctx.t.server) {
      await new Promise((r) => setTimeout(r, 2100));
      ctx.t.server.appendLog(ctx.ns, 'logs', 'main', 'new\n');
    }
    await until(async () => (await k('logs', 'logs')).stdout === 'old\nnew\n', 20_000, 'both lines');
    const [stamped, last] = await Promise.all([
      k('logs', 'logs', '--timestamps'),
      k('logs', 'logs', '--tail=1'),
    ]);
    expect(stamped.stderr).toBe('');
    expect(last.stdout).toBe('new\n');
    const lines = stamped.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z old$/);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z new$/);
    const [t0, t1] = lines.map((l) => Date.parse(l.split(' ')[0]!));
    expect(t1! - t0!).toBeGreaterThanOrEqual(2000);
    const since = Math.ceil((Date.now() - t1!) / 1000) + 1;
    const recent = await k('logs', 'logs', `--since=${since}s`);
    expect(recent.stderr).toBe('');
    expect(recent.stdout).toBe('new\n');
  });

  it('kubectl logs -f streams lines as they come and ends when the container does', async () => {
    await podWithLogs('follow', 'sleep 2; echo one; sleep 1; echo two');
    let out = '';
    const following = ctx.t.kubectl(['logs', '-f', 'follow', '-n', ctx.ns], {
      until: (stdout) => {
        out = stdout;
        return false;
      },
    });
    if (ctx.t.server) {
      const server = ctx.t.server;
      await until(() => server.followers(ctx.ns, 'follow', 'main') > 0, 10_000, 'kubectl to follow');
      server.appendLog(ctx.ns, 'follow', 'main', 'one\n');
      await until(() => out === 'one\n', 10_000, 'the first line to stream');
      server.appendLog(ctx.ns, 'follow', 'main', 'two\n');
      server.setPodPhase(ctx.ns, 'follow', 'Succeeded');
    }
    const result = await following;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('one\ntwo\n');
  });

  it('kubectl exec runs a command in the container and prints its output', async () => {
    await podWithLogs('shell', 'sleep 3600');
    const hi = await ctx.t.kubectl(['exec', '-n', ctx.ns, 'shell', '--', 'echo', 'hi']);
    expect(hi.stderr).toBe('');
    expect(hi.stdout).toBe('hi\n');
    expect(hi.code).toBe(0);
    const failing = await ctx.t.kubectl(['exec', '-n', ctx.ns, 'shell', '--', 'sh', '-c', 'exit 3'], {
      timeoutMs: 8000,
    });
    expect(failing.code).toBe(3);
    expect(failing.stderr).toBe('command terminated with exit code 3\n');
  });

  it('kubectl rollout status follows a deployment, and a new image, until it has successfully rolled out', async () => {
    await ctx.t.kubectl([
      'apply',
      '-f',
      ctx.t.file('rollout.yaml', deploymentYaml('rollout', ctx.ns, { replicas: 2 })),
    ]);
    const status = await k('rollout', 'status', 'deployment/rollout', '--timeout=30s');
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/deployment "rollout" successfully rolled out\n$/);
    const live = json(await k('get', 'deployment', 'rollout', '-o', 'json'));
    expect(live.status).toMatchObject({
      replicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      updatedReplicas: 2,
    });
    expect(live.status.observedGeneration).toBe(live.metadata.generation);

    // A new image rolls out through a second ReplicaSet; the first is scaled to zero and kept.
    const updated = await k('set', 'image', 'deployment/rollout', 'app=nginx:1.28');
    expect(updated.stdout).toBe('deployment.apps/rollout image updated\n');
    const again = await k('rollout', 'status', 'deployment/rollout', '--timeout=30s');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/deployment "rollout" successfully rolled out\n$/);
    const sets = json(await k('get', 'replicasets', '-l', 'app=rollout', '-o', 'json')).items as {
      metadata: { annotations: Record<string, string>; ownerReferences: { kind: string; name: string }[] };
      spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
    }[];
    const byRevision = Object.fromEntries(
      sets.map((rs) => [rs.metadata.annotations['deployment.kubernetes.io/revision'], rs]),
    );
    expect(Object.keys(byRevision).sort()).toEqual(['1', '2']);
    expect(byRevision['1']!.spec.replicas).toBe(0);
    expect(byRevision['2']!.spec.replicas).toBe(2);
    expect(byRevision['2']!.spec.template.spec.containers[0]!.image).toBe('nginx:1.28');
    expect(byRevision['2']!.metadata.ownerReferences[0]).toMatchObject({
      kind: 'Deployment',
      name: 'rollout',
    });
  });

  it('kubectl scale changes the replicas through the scale subresource', async () => {
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('scaled.yaml', deploymentYaml('scaled', ctx.ns))]);
    const scaled = await k('scale', 'deployment/scaled', '--replicas=3');
    expect(scaled.stderr).toBe('');
    expect(scaled.stdout).toBe('deployment.apps/scaled scaled\n');
    expect(json(await k('get', 'deployment', 'scaled', '-o', 'json')).spec.replicas).toBe(3);
    const scale = json(
      await ctx.t.kubectl(['get', '--raw', `/apis/apps/v1/namespaces/${ctx.ns}/deployments/scaled/scale`]),
    );
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } });
    const refused = await k('scale', 'deployment/scaled', '--current-replicas=5', '--replicas=1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Expected replicas to be 5, was 3');
  });

  it('kubectl auth can-i create deployments answers yes', async () => {
    const yes = await k('auth', 'can-i', 'create', 'deployments');
    expect(yes.stderr).toBe('');
    expect(yes.stdout).toBe('yes\n');
    expect(yes.code).toBe(0);
    const list = await k('auth', 'can-i', 'list', 'pods', '--subresource=log');
    expect(list.stdout).toBe('yes\n');
    // --list asks for the rules (a SelfSubjectRulesReview): an admin may do everything.
    const rules = await k('auth', 'can-i', '--list');
    expect(rules.stderr).toBe('');
    expect(rules.stdout).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/);
    expect(rules.stdout).toMatch(/\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n/);
  });

  it('kubectl label and annotate add, refuse to overwrite without --overwrite, and remove', async () => {
    expect((await k('create', 'configmap', 'tagged')).code).toBe(0);
    expect((await k('label', 'configmap', 'tagged', 'tier=web')).stdout).toBe('configmap/tagged labeled\n');
    const clash = await k('label', 'configmap', 'tagged', 'tier=api');
    expect(clash.code).toBe(1);
    expect(clash.stderr).toBe("error: 'tier' already has a value (web), and --overwrite is false\n");
    expect((await k('label', 'configmap', 'tagged', 'tier=api', '--overwrite')).stdout).toBe(
      'configmap/tagged labeled\n',
    );
    expect((await k('annotate', 'configmap', 'tagged', 'note=hello')).stdout).toBe(
      'configmap/tagged annotated\n',
    );
    let live = json(await k('get', 'configmap', 'tagged', '-o', 'json'));
    expect(live.metadata.labels).toEqual({ tier: 'api' });
    expect(live.metadata.annotations).toEqual({ note: 'hello' });
    expect((await k('label', 'configmap', 'tagged', 'tier-')).stdout).toBe('configmap/tagged unlabeled\n');
    expect((await k('annotate', 'configmap', 'tagged', 'note-')).stdout).toBe('configmap/tagged annotated\n');
    live = json(await k('get', 'configmap', 'tagged', '-o', 'json'));
    expect(live.metadata.labels).toBeUndefined();
    expect(live.metadata.annotations).toBeUndefined();
  });

  it('kubectl wait --for=condition=Available returns once the deployment is available', async () => {
    await ctx.t.kubectl(['apply', '-f', ctx.t.file('waited.yaml', deploymentYaml('waited', ctx.ns))]);
    const waited = await k('wait', '--for=condition=Available', 'deployment/waited', '--timeout=30s');
    expect(waited.stderr).toBe('');
    expect(waited.stdout).toBe('deployment.apps/waited condition met\n');
    const condition = json(await k('get', 'deployment', 'waited', '-o', 'json')).status.conditions.find(
      (c: { type: string }) => c.type === 'Available',
    );
    expect(condition).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
  });

  it('kubectl explain deployment.spec.replicas describes the field from the OpenAPI v3 schema', async () => {
    const explained = await ctx.t.kubectl(['explain', 'deployment.spec.replicas']);
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toMatch(
      /^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n\nFIELD: replicas <integer>\n/,
    );
    expect(explained.stdout).toContain('Number of desired pods.');
    const unknown = await ctx.t.kubectl(['explain', 'deployment.spec.replicaz']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('field "replicaz" does not exist');
  });
});
