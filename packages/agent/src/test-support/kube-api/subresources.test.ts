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
const deployment = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
    },
  },
});

describe('/status', () => {
  it('changes only .status through /status, and the main resource ignores .status', async () => {
    await k.post(DEPLOYS, deployment('st'));
    const viaMain = await k.patch(`${DEPLOYS}/st`, { spec: { replicas: 2 }, status: { replicas: 9 } });
    expect(viaMain.body.spec.replicas).toBe(2);
    expect(viaMain.body.status).toBeUndefined();
    expect(viaMain.body.metadata.generation).toBe(2);
    const viaStatus = await k.patch(`${DEPLOYS}/st/status`, {
      spec: { replicas: 5 },
      status: { replicas: 2, observedGeneration: 2 },
    });
    expect(viaStatus.body.spec.replicas).toBe(2);
    expect(viaStatus.body.status).toEqual({ replicas: 2, observedGeneration: 2 });
    expect(viaStatus.body.metadata.generation).toBe(2);
    const current = (await k.get(`${DEPLOYS}/st`)).body;
    const put = await k.put(`${DEPLOYS}/st/status`, {
      ...current,
      spec: { ...current.spec, replicas: 7 },
      status: { replicas: 1 },
    });
    expect(put.body).toMatchObject({ spec: { replicas: 2 }, status: { replicas: 1 } });
    const status = put.body.metadata.managedFields.find(
      (m: { subresource?: string }) => m.subresource === 'status',
    );
    expect(status).toMatchObject({ operation: 'Update', subresource: 'status' });
  });
});

describe('/scale', () => {
  it('reads and writes an autoscaling/v1 Scale for Deployments, StatefulSets and ReplicaSets', async () => {
    await k.post(DEPLOYS, deployment('sc', 3));
    const scale = await k.get(`${DEPLOYS}/sc/scale`);
    expect(scale.body).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'sc', namespace: 'default', resourceVersion: expect.any(String) },
      spec: { replicas: 3 },
      status: { replicas: 0, selector: 'app=sc' },
    });
    const patched = await k.patch(`${DEPLOYS}/sc/scale`, { spec: { replicas: 5 } });
    expect(patched.body.spec.replicas).toBe(5);
    expect(k.api.get('apps/v1', 'Deployment', 'sc', 'default')!.spec).toMatchObject({ replicas: 5 });
    const stale = await k.put(`${DEPLOYS}/sc/scale`, { ...scale.body, spec: { replicas: 1 } });
    expect(stale.body).toMatchObject({ code: 409, reason: 'Conflict' });
    const fresh = await k.put(`${DEPLOYS}/sc/scale`, { ...patched.body, spec: { replicas: 1 } });
    expect(fresh.body.spec.replicas).toBe(1);
    const negative = await k.patch(`${DEPLOYS}/sc/scale`, { spec: { replicas: -1 } });
    expect(negative.status).toBe(422);
    const resources = (await k.get('/apis/apps/v1')).body.resources as {
      name: string;
      kind: string;
      group?: string;
    }[];
    for (const r of ['deployments/scale', 'statefulsets/scale', 'replicasets/scale']) {
      expect(resources).toContainEqual(
        expect.objectContaining({ name: r, kind: 'Scale', group: 'autoscaling' }),
      );
    }
    expect((await k.get('/api/v1/namespaces/default/configmaps/x/scale')).status).toBe(404);
  });
});
