import { describe, expect, it } from 'vitest';
import { deploymentYaml, json, skipLine, useTarget } from './harness.js';

/** Contract: Secrets, validation and the three patch types, as the real kubectl v1.31 sees them. */
describe.skipIf(skipLine())('kubectl secrets, validation and patches against the API server', () => {
  const ctx = useTarget('validate');

  it('kubectl create secret generic --from-literal stores the value base64-encoded in data', async () => {
    const created = await ctx.t.kubectl([
      'create',
      'secret',
      'generic',
      'db',
      '-n',
      ctx.ns,
      '--from-literal=password=s3cr3t',
      '--from-literal=user=admin',
    ]);
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('secret/db created\n');
    const secret = json(await ctx.t.kubectl(['get', 'secret', 'db', '-n', ctx.ns, '-o', 'json']));
    expect(secret.type).toBe('Opaque');
    expect(secret.data).toEqual({ password: 'czNjcjN0', user: 'YWRtaW4=' });
    const table = await ctx.t.kubectl(['get', 'secret', 'db', '-n', ctx.ns]);
    expect(table.stdout).toMatch(/^NAME\s+TYPE\s+DATA\s+AGE\ndb\s+Opaque\s+2\s+\d+s\n$/);
    const again = await ctx.t.kubectl([
      'create',
      'secret',
      'generic',
      'db',
      '-n',
      ctx.ns,
      '--from-literal=a=b',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: failed to create secret secrets "db" already exists\n');
  });

  it('kubectl apply of a Secret with stringData stores it as base64 data', async () => {
    const manifest = ctx.t.file(
      'string-data.yaml',
      `apiVersion: v1
kind: Secret
metadata:
  name: token
  namespace: ${ctx.ns}
stringData:
  token: abc
data:
  other: b3RoZXI=
`,
    );
    const applied = await ctx.t.kubectl(['apply', '-f', manifest]);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toBe('secret/token created\n');
    const secret = json(await ctx.t.kubectl(['get', 'secret', 'token', '-n', ctx.ns, '-o', 'json']));
    expect(secret.data).toEqual({ token: 'YWJj', other: 'b3RoZXI=' });
    expect(secret.stringData).toBeUndefined();
    expect(secret.type).toBe('Opaque');
  });

  it('kubectl apply refuses replicas: "three" and creates nothing', async () => {
    const manifest = ctx.t.file(
      'three.yaml',
      deploymentYaml('three', ctx.ns).replace('replicas: 1', 'replicas: "three"'),
    );
    const refused = await ctx.t.kubectl(['apply', '-f', manifest]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32\n',
    );
    const get = await ctx.t.kubectl(['get', 'deployment', 'three', '-n', ctx.ns]);
    expect(get.stderr).toBe('Error from server (NotFound): deployments.apps "three" not found\n');
  });

  it('kubectl apply refuses a Deployment without a selector as invalid, naming the field', async () => {
    const manifest = ctx.t.file(
      'no-selector.yaml',
      deploymentYaml('nosel', ctx.ns).replace('  selector:\n    matchLabels:\n      app: nosel\n', ''),
    );
    const refused = await ctx.t.kubectl(['apply', '-f', manifest]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The Deployment "nosel" is invalid');
    expect(refused.stderr).toContain('\n* spec.selector: Required value\n');
    expect((await ctx.t.kubectl(['get', 'deployment', 'nosel', '-n', ctx.ns])).code).toBe(1);
  });

  it('kubectl apply --validate=strict refuses an unknown field, naming it', async () => {
    const manifest = ctx.t.file(
      'unknown.yaml',
      deploymentYaml('unknown', ctx.ns).replace('  replicas: 1', '  replicas: 1\n  replicaz: 2'),
    );
    const refused = await ctx.t.kubectl(['apply', '--validate=strict', '-f', manifest]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Error from server \(BadRequest\): error when creating ".*": strict decoding error: unknown field "spec\.replicaz"\n$/,
    );
    expect((await ctx.t.kubectl(['get', 'deployment', 'unknown', '-n', ctx.ns])).code).toBe(1);
  });

  it('kubectl apply --validate=warn applies but warns about the unknown field', async () => {
    const manifest = ctx.t.file(
      'warn.yaml',
      deploymentYaml('warned', ctx.ns).replace('  replicas: 1', '  replicas: 1\n  replicaz: 2'),
    );
    const applied = await ctx.t.kubectl(['apply', '--validate=warn', '-f', manifest]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toBe('deployment.apps/warned created\n');
    expect(applied.stderr).toContain('Warning: unknown field "spec.replicaz"');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'warned', '-n', ctx.ns, '-o', 'json']));
    expect(live.spec.replicaz).toBeUndefined();
  });

  it('kubectl patch (strategic) changes a container image by name and keeps its ports', async () => {
    const manifest = ctx.t.file('smp.yaml', deploymentYaml('smp', ctx.ns));
    expect((await ctx.t.kubectl(['apply', '-f', manifest])).code).toBe(0);
    const patched = await ctx.t.kubectl([
      'patch',
      'deployment',
      'smp',
      '-n',
      ctx.ns,
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"busybox:1.36"},{"name":"app","image":"nginx:1.28"}]}}}}',
    ]);
    expect(patched.stderr).toBe('');
    expect(patched.stdout).toBe('deployment.apps/smp patched\n');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'smp', '-n', ctx.ns, '-o', 'json']));
    const containers = live.spec.template.spec.containers as {
      name: string;
      image: string;
      ports?: unknown;
    }[];
    // Merged by the merge key `name`: app is changed in place, the new sidecar is added.
    expect(containers.map((c) => [c.name, c.image]).sort()).toEqual([
      ['app', 'nginx:1.28'],
      ['sidecar', 'busybox:1.36'],
    ]);
    const app = containers.find((c) => c.name === 'app');
    expect(app?.ports).toEqual([{ containerPort: 8080, name: 'http', protocol: 'TCP' }]);
    // $patch: delete removes the list element by its merge key.
    const removed = await ctx.t.kubectl([
      'patch',
      'deployment',
      'smp',
      '-n',
      ctx.ns,
      '-p',
      '{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"}]}}}}',
    ]);
    expect(removed.stdout).toBe('deployment.apps/smp patched\n');
    const after = json(await ctx.t.kubectl(['get', 'deployment', 'smp', '-n', ctx.ns, '-o', 'json']));
    expect(after.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['app']);
  });

  it('kubectl patch --type=json applies JSON patch operations and refuses a failing test', async () => {
    const manifest = ctx.t.file('json-patch.yaml', deploymentYaml('jsonp', ctx.ns));
    expect((await ctx.t.kubectl(['apply', '-f', manifest])).code).toBe(0);
    const patched = await ctx.t.kubectl([
      'patch',
      'deployment',
      'jsonp',
      '-n',
      ctx.ns,
      '--type=json',
      '-p',
      '[{"op":"replace","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata/labels","value":{"tier":"web"}},{"op":"remove","path":"/spec/template/spec/containers/0/ports"}]',
    ]);
    expect(patched.stderr).toBe('');
    expect(patched.stdout).toBe('deployment.apps/jsonp patched\n');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'jsonp', '-n', ctx.ns, '-o', 'json']));
    expect(live.spec.replicas).toBe(3);
    expect(live.metadata.labels).toEqual({ tier: 'web' });
    expect(live.spec.template.spec.containers[0].ports).toBeUndefined();
    const failed = await ctx.t.kubectl([
      'patch',
      'deployment',
      'jsonp',
      '-n',
      ctx.ns,
      '--type=json',
      '-p',
      '[{"op":"test","path":"/spec/replicas","value":5}]',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('testing value /spec/replicas failed');
  });

  it('kubectl patch --type=merge merges maps, deletes with null and replaces lists', async () => {
    const manifest = ctx.t.file('merge.yaml', deploymentYaml('mergep', ctx.ns, { labels: '    tier: web' }));
    expect((await ctx.t.kubectl(['apply', '-f', manifest])).code).toBe(0);
    const patched = await ctx.t.kubectl([
      'patch',
      'deployment',
      'mergep',
      '-n',
      ctx.ns,
      '--type=merge',
      '-p',
      '{"metadata":{"labels":{"tier":null,"team":"a"}},"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.28"}]}}}}',
    ]);
    expect(patched.stderr).toBe('');
    expect(patched.stdout).toBe('deployment.apps/mergep patched\n');
    const live = json(await ctx.t.kubectl(['get', 'deployment', 'mergep', '-n', ctx.ns, '-o', 'json']));
    expect(live.metadata.labels).toEqual({ team: 'a' });
    // A merge patch replaces the list: the container's ports are gone (defaults are filled back).
    expect(live.spec.template.spec.containers).toHaveLength(1);
    expect(live.spec.template.spec.containers[0]).toMatchObject({ name: 'app', image: 'nginx:1.28' });
    expect(live.spec.template.spec.containers[0].ports).toBeUndefined();
    // A resourceVersion in the patch is a precondition: a stale one is a conflict.
    const stale = await ctx.t.kubectl([
      'patch',
      'deployment',
      'mergep',
      '-n',
      ctx.ns,
      '--type=merge',
      '-p',
      '{"metadata":{"resourceVersion":"1","labels":{"team":"b"}}}',
    ]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      'Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "mergep": the object has been modified; please apply your changes to the latest version and try again\n',
    );
  });
});
