import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-client.js';

let k: TestClient;
beforeAll(async () => {
  k = await TestClient.start();
});
afterAll(async () => {
  await k?.close();
});

const DEPLOYS = '/apis/apps/v1/namespaces/default/deployments';
const deployment = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80, name: 'http' }] }],
      },
    },
    ...spec,
  },
});

describe('OpenAPI, validation and defaulting on every write', () => {
  it('serves /openapi/v2 as JSON and /openapi/v3 with its group versions', async () => {
    const v2 = await k.get('/openapi/v2');
    expect(v2.body.definitions['io.k8s.api.apps.v1.Deployment']).toBeDefined();
    const pb = await k.get('/openapi/v2', {
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    });
    expect(pb.status).toBe(406);
    const index = await k.get('/openapi/v3');
    const url = index.body.paths['apis/apps/v1'].serverRelativeURL as string;
    expect((await k.get(url)).body.components.schemas['io.k8s.api.apps.v1.Deployment']).toBeDefined();
  });

  it('refuses an invalid object with 422 and its causes, creating nothing', async () => {
    const { selector: _s, ...spec } = deployment('bad').spec;
    const res = await k.post(DEPLOYS, { ...deployment('bad'), spec });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      details: { name: 'bad', group: 'apps', kind: 'Deployment' },
    });
    expect(res.body.message).toMatch(/^Deployment\.apps "bad" is invalid: .*spec\.selector: Required value/);
    expect(res.body.details.causes).toContainEqual(
      expect.objectContaining({ field: 'spec.selector', reason: 'FieldValueRequired' }),
    );
    expect(k.api.get('apps/v1', 'Deployment', 'bad', 'default')).toBeUndefined();
    const typed = await k.post(DEPLOYS, deployment('three', { replicas: 'three' }));
    expect(typed.body).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it('honours fieldValidation: Strict refuses, Warn warns in a Warning header, both drop the field', async () => {
    const strict = await k.post(`${DEPLOYS}?fieldValidation=Strict`, deployment('s', { replicaz: 2 }));
    expect(strict.body).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'strict decoding error: unknown field "spec.replicaz"',
    });
    const warn = await k.post(`${DEPLOYS}?fieldValidation=Warn`, deployment('w', { replicaz: 2 }));
    expect(warn.status).toBe(201);
    expect(warn.headers.get('warning')).toBe('299 - "unknown field \\"spec.replicaz\\""');
    expect(warn.body.spec.replicaz).toBeUndefined();
  });

  it('defaults what the apiserver defaults and turns Secret stringData into data', async () => {
    const created = await k.post(DEPLOYS, deployment('d'));
    expect(created.body.spec).toMatchObject({
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate' },
    });
    expect(created.body.spec.template.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
    });
    const secret = await k.post('/api/v1/namespaces/default/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      stringData: { password: 'pa55' },
    });
    expect(secret.body.data).toEqual({ password: Buffer.from('pa55').toString('base64') });
    expect(secret.body.stringData).toBeUndefined();
    expect(secret.body.type).toBe('Opaque');
  });
});

describe('patches and field managers', () => {
  it('applies a strategic merge patch by merge key and a JSON patch, and says why a test op fails', async () => {
    await k.post(DEPLOYS, deployment('p'));
    const smp = await k.patch(
      `${DEPLOYS}/p`,
      { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } } },
      'application/strategic-merge-patch+json',
    );
    expect(smp.body.spec.template.spec.containers[0]).toMatchObject({
      image: 'nginx:1.28',
      ports: [{ containerPort: 80 }],
    });
    const jp = await k.patch(
      `${DEPLOYS}/p`,
      [{ op: 'replace', path: '/spec/replicas', value: 3 }],
      'application/json-patch+json',
    );
    expect(jp.body.spec.replicas).toBe(3);
    const failed = await k.patch(
      `${DEPLOYS}/p`,
      [{ op: 'test', path: '/spec/replicas', value: 9 }],
      'application/json-patch+json',
    );
    expect(failed.status).toBe(422);
  });

  it('records update managers from the User-Agent and answers apply conflicts naming the owner', async () => {
    const created = await k.call('POST', DEPLOYS, deployment('m'), 'application/json', {
      'user-agent': 'kubectl/v1.31.2 (linux/amd64) kubernetes/abc',
    });
    expect(created.body.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'kubectl', operation: 'Update', fieldsV1: expect.any(Object) }),
    ]);
    const yaml = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: m\nspec:\n  replicas: 4\n';
    const conflict = await k.call(
      'PATCH',
      `${DEPLOYS}/m?fieldManager=ci`,
      yaml,
      'application/apply-patch+yaml',
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl" using apps/v1: .spec.replicas',
    });
    const forced = await k.call(
      'PATCH',
      `${DEPLOYS}/m?fieldManager=ci&force=true`,
      yaml,
      'application/apply-patch+yaml',
    );
    expect(forced.body.spec.replicas).toBe(4);
    expect(forced.body.metadata.managedFields.map((m: { manager: string }) => m.manager).sort()).toEqual([
      'ci',
      'kubectl',
    ]);
  });

  it('refuses a strategic merge patch on a custom resource', async () => {
    k.api.addKind({
      group: 'example.com',
      version: 'v1',
      kind: 'Widget',
      plural: 'widgets',
      namespaced: true,
    });
    k.api.put({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
    });
    const res = await k.patch(
      '/apis/example.com/v1/namespaces/default/widgets/w',
      { spec: {} },
      'application/strategic-merge-patch+json',
    );
    expect(res.status).toBe(415);
  });
});

describe('write options', () => {
  it('checks the query options as the apiserver does', async () => {
    const path = `${DEPLOYS}/opts`;
    const apply = await k.call('PATCH', path, deployment('opts'), 'application/apply-patch+yaml');
    expect(apply.body).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: {
        group: 'meta.k8s.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', field: 'fieldManager' }],
      },
    });
    const forced = await k.patch(`${path}?force=true`, { spec: {} });
    expect(forced.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
    const created = await k.post(`${DEPLOYS}?fieldValidation=Loud&dryRun=Some`, deployment('opts'));
    expect(created.body.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: [dryRun: Unsupported value: []string{"Some"}: supported values: "All", fieldValidation: Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"]',
    );
  });
});
