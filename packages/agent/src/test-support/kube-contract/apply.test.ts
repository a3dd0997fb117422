import { describe, expect, it } from 'vitest';
import { deploymentYaml, json, skipLine, useTarget } from './harness.js';

/**
 * Contract: discovery, client-side and server-side apply, and diff, as the real kubectl v1.31 sees
 * them (see README.md). Each `it` is one behaviour a real cluster has.
 */
describe.skipIf(skipLine())('kubectl discovery, apply and diff against the API server', () => {
  const ctx = useTarget('apply');

  it('kubectl api-resources lists the built-in resources with their group, scope and kind', async () => {
    const { code, stdout, stderr } = await ctx.t.kubectl(['api-resources']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/);
    const row = (name: string) => lines.find((l) => l.split(/\s+/)[0] === name)?.split(/\s+/);
    expect(row('deployments')).toEqual(['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
    expect(row('namespaces')).toEqual(['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    expect(row('configmaps')).toEqual(['configmaps', 'cm', 'v1', 'true', 'ConfigMap']);
    expect(row('selfsubjectaccessreviews')).toEqual([
      'selfsubjectaccessreviews',
      'authorization.k8s.io/v1',
      'false',
      'SelfSubjectAccessReview',
    ]);
  });

  it('kubectl api-versions lists every group version', async () => {
    const { code, stdout } = await ctx.t.kubectl(['api-versions']);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toEqual(
      expect.arrayContaining([
        'v1',
        'apps/v1',
        'batch/v1',
        'networking.k8s.io/v1',
        'authorization.k8s.io/v1',
      ]),
    );
  });

  it('kubectl version reports the client and the server version', async () => {
    const result = await ctx.t.kubectl(['version', '-o', 'json']);
    const version = json<{
      clientVersion: { gitVersion: string };
      serverVersion: { gitVersion: string; major: string; minor: string; platform: string };
    }>(result);
    expect(version.clientVersion.gitVersion).toMatch(/^v1\.31\./);
    expect(version.serverVersion).toMatchObject({
      major: '1',
      gitVersion: expect.stringMatching(/^v1\.\d+\.\d+/),
    });
    expect(version.serverVersion.platform).toMatch(/^linux\//);
    expect(result.stderr).toBe('');
  });

  it('kubectl apply creates an object and records its last-applied configuration', async () => {
    const manifest = ctx.t.file('csa-create.yaml', deploymentYaml('csa-create', ctx.ns));
    // A server dry run says what would happen and leaves nothing behind.
    const dry = await ctx.t.kubectl(['apply', '--dry-run=server', '-f', manifest]);
    expect(dry.stdout).toBe('deployment.apps/csa-create created (server dry run)\n');
    expect((await ctx.t.kubectl(['get', 'deployment', 'csa-create', '-n', ctx.ns])).stderr).toBe(
      'Error from server (NotFound): deployments.apps "csa-create" not found\n',
    );
    const applied = await ctx.t.kubectl(['apply', '-f', manifest]);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toBe('deployment.apps/csa-create created\n');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'csa-create', '-n', ctx.ns, '-o', 'json']));
    const last = JSON.parse(
      live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] as string,
    );
    expect(last).toMatchObject({ kind: 'Deployment', metadata: { name: 'csa-create', namespace: ctx.ns } });
    // Defaults are filled in by the server, as a real API server does.
    expect(live.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    });
    expect(live.spec.template.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
    });
    expect((await ctx.t.kubectl(['apply', '-f', manifest])).stdout).toBe(
      'deployment.apps/csa-create unchanged\n',
    );
    const nowhere = await ctx.t.kubectl([
      'apply',
      '-f',
      ctx.t.file('nowhere.yaml', deploymentYaml('x', 'no-such-ns')),
    ]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toMatch(
      /^Error from server \(NotFound\): error when creating ".*nowhere\.yaml": namespaces "no-such-ns" not found\n$/,
    );
    // Client-side apply's writes are Update operations of the manager kubectl-client-side-apply.
    const managed = json(
      await ctx.t.kubectl([
        'get',
        'deployment',
        'csa-create',
        '-n',
        ctx.ns,
        '-o',
        'json',
        '--show-managed-fields',
      ]),
    ).metadata.managedFields as { manager: string; operation: string; fieldsType: string }[];
    expect(managed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          fieldsType: 'FieldsV1',
        }),
      ]),
    );
  });

  it('kubectl apply again with a changed image and a dropped field changes the one and removes the other', async () => {
    const env = '        env:\n        - name: GREETING\n          value: hello\n';
    const first = ctx.t.file('csa-1.yaml', deploymentYaml('csa-change', ctx.ns, { extra: env }));
    expect((await ctx.t.kubectl(['apply', '-f', first])).stdout).toBe('deployment.apps/csa-change created\n');
    const second = ctx.t.file('csa-2.yaml', deploymentYaml('csa-change', ctx.ns, { image: 'nginx:1.28' }));
    const reapplied = await ctx.t.kubectl(['apply', '-f', second]);
    expect(reapplied.stderr).toBe('');
    expect(reapplied.stdout).toBe('deployment.apps/csa-change configured\n');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'csa-change', '-n', ctx.ns, '-o', 'json']));
    const container = live.spec.template.spec.containers[0];
    expect(container.image).toBe('nginx:1.28');
    expect(container.env).toBeUndefined();
    expect(container.ports).toEqual([{ containerPort: 8080, name: 'http', protocol: 'TCP' }]);
    expect(live.metadata.generation).toBe(2);
  });

  it('kubectl apply --server-side creates, and a re-apply changes fields and removes the ones dropped', async () => {
    const labels = '    tier: web';
    const first = ctx.t.file('ssa-1.yaml', deploymentYaml('ssa', ctx.ns, { labels, replicas: 2 }));
    const dry = await ctx.t.kubectl(['apply', '--server-side', '--dry-run=server', '-f', first]);
    expect(dry.stdout).toBe('deployment.apps/ssa serverside-applied (server dry run)\n');
    expect((await ctx.t.kubectl(['get', 'deployment', 'ssa', '-n', ctx.ns])).code).toBe(1);
    const created = await ctx.t.kubectl(['apply', '--server-side', '-f', first]);
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('deployment.apps/ssa serverside-applied\n');
    let live = json(
      await ctx.t.kubectl(['get', 'deployment', 'ssa', '-n', ctx.ns, '-o', 'json', '--show-managed-fields']),
    );
    const entry = live.metadata.managedFields.find((m: { manager: string }) => m.manager === 'kubectl');
    expect(entry).toMatchObject({ operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1' });
    expect(entry.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(entry.fieldsV1['f:metadata']['f:labels']['f:tier']).toEqual({});

    const second = ctx.t.file(
      'ssa-2.yaml',
      deploymentYaml('ssa', ctx.ns, { image: 'nginx:1.28', replicas: 2 }),
    );
    const reapplied = await ctx.t.kubectl(['apply', '--server-side', '-f', second]);
    expect(reapplied.stdout).toBe('deployment.apps/ssa serverside-applied\n');
    live = json(await ctx.t.kubectl(['get', 'deployment', 'ssa', '-n', ctx.ns, '-o', 'json']));
    expect(live.metadata.labels?.tier).toBeUndefined();
    expect(live.spec.template.spec.containers[0]).toMatchObject({
      image: 'nginx:1.28',
      ports: [{ containerPort: 8080 }],
    });
    expect(live.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBeUndefined();
  });

  it('kubectl apply --server-side by a second field manager changing an owned field fails naming the owner', async () => {
    const mine = ctx.t.file('ssa-owned.yaml', deploymentYaml('ssa-owned', ctx.ns));
    expect((await ctx.t.kubectl(['apply', '--server-side', '-f', mine])).code).toBe(0);
    const theirs = ctx.t.file(
      'ssa-theirs.yaml',
      deploymentYaml('ssa-owned', ctx.ns, { image: 'nginx:1.28' }),
    );
    const refused = await ctx.t.kubectl(['apply', '--server-side', '--field-manager=deployer', '-f', theirs]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'error: Apply failed with 1 conflict: conflict with "kubectl": .spec.template.spec.containers[name="app"].image\n',
    );
    expect(refused.stderr).toContain('--force-conflicts');
    // Applying the same value is no conflict: the field becomes shared by both managers.
    const same = ctx.t.file('ssa-same.yaml', deploymentYaml('ssa-owned', ctx.ns));
    const shared = await ctx.t.kubectl(['apply', '--server-side', '--field-manager=deployer', '-f', same]);
    expect(shared.stderr).toBe('');
    expect(shared.stdout).toBe('deployment.apps/ssa-owned serverside-applied\n');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'ssa-owned', '-n', ctx.ns, '-o', 'json']));
    expect(live.spec.template.spec.containers[0].image).toBe('nginx:1.27');
  });

  it('kubectl apply --server-side --force-conflicts takes the field from its owner', async () => {
    const mine = ctx.t.file('ssa-force.yaml', deploymentYaml('ssa-force', ctx.ns));
    expect((await ctx.t.kubectl(['apply', '--server-side', '-f', mine])).code).toBe(0);
    const theirs = ctx.t.file(
      'ssa-force-2.yaml',
      deploymentYaml('ssa-force', ctx.ns, { image: 'nginx:1.28' }),
    );
    const forced = await ctx.t.kubectl([
      'apply',
      '--server-side',
      '--field-manager=deployer',
      '--force-conflicts',
      '-f',
      theirs,
    ]);
    expect(forced.stderr).toBe('');
    expect(forced.stdout).toBe('deployment.apps/ssa-force serverside-applied\n');
    const live = json(
      await ctx.t.kubectl([
        'get',
        'deployment',
        'ssa-force',
        '-n',
        ctx.ns,
        '-o',
        'json',
        '--show-managed-fields',
      ]),
    );
    expect(live.spec.template.spec.containers[0].image).toBe('nginx:1.28');
    const fields = (manager: string) =>
      JSON.stringify(
        live.metadata.managedFields.find((m: { manager: string }) => m.manager === manager)?.fieldsV1,
      );
    expect(fields('deployer')).toContain('"f:image"');
    expect(fields('kubectl')).not.toContain('"f:image"');
    expect(fields('kubectl')).toContain('"f:replicas"');
  });

  it('kubectl diff exits 1 showing the change, and 0 when the manifest matches', async () => {
    const manifest = ctx.t.file('diff.yaml', deploymentYaml('diffed', ctx.ns));
    expect((await ctx.t.kubectl(['apply', '-f', manifest])).code).toBe(0);
    const same = await ctx.t.kubectl(['diff', '-f', manifest]);
    expect(same.stderr).toBe('');
    expect(same.stdout).toBe('');
    expect(same.code).toBe(0);
    const changed = ctx.t.file(
      'diff-2.yaml',
      deploymentYaml('diffed', ctx.ns, { image: 'nginx:1.28', replicas: 3 }),
    );
    const diff = await ctx.t.kubectl(['diff', '-f', changed]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^- {2}replicas: 1$/m);
    expect(diff.stdout).toMatch(/^\+ {2}replicas: 3$/m);
    expect(diff.stdout).toMatch(/^\+ +- image: nginx:1\.28$/m);
    expect(diff.stdout).toMatch(/^- +generation: 1$/m);
    // diff is a dry run: nothing changed.
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'diffed', '-n', ctx.ns, '-o', 'json']));
    expect(live.spec.replicas).toBe(1);
    // The same through a server-side apply dry run (forced: the fields are client-side apply's).
    const serverSide = await ctx.t.kubectl(['diff', '--server-side', '--force-conflicts', '-f', changed]);
    expect(serverSide.code).toBe(1);
    expect(serverSide.stdout).toMatch(/^\+ {2}replicas: 3$/m);
  });
});
