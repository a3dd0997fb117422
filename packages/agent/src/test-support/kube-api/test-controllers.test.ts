import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient, eventually } from './test-client.js';

let k: TestClient;
beforeAll(async () => {
  k = await TestClient.start({ controllers: true });
});
afterAll(async () => {
  await k?.close();
});

const deployment = (image: string, replicas = 2) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } },
  },
});

describe('the test controllers', () => {
  it('roll a Deployment out through a ReplicaSet to running, ready pods, and roll it again', async () => {
    await k.post('/apis/apps/v1/namespaces/default/deployments', deployment('nginx:1.27'));
    const done = () => {
      const d = k.api.get('apps/v1', 'Deployment', 'web', 'default')!;
      const s = d.status as Record<string, unknown> | undefined;
      return (
        s?.observedGeneration === d.metadata.generation &&
        s?.updatedReplicas === 2 &&
        s?.availableReplicas === 2 &&
        s?.replicas === 2
      );
    };
    await eventually(done);
    const d = k.api.get('apps/v1', 'Deployment', 'web', 'default')!;
    expect(d.metadata.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '1' });
    expect((d.status as { conditions: unknown[] }).conditions).toEqual([
      expect.objectContaining({ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' }),
      expect.objectContaining({ type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' }),
    ]);
    const pods = k.api.list('v1', 'Pod', 'default');
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.status).toMatchObject({
        phase: 'Running',
        conditions: expect.arrayContaining([expect.objectContaining({ type: 'Ready', status: 'True' })]),
      });
      expect(pod.spec).toMatchObject({ nodeName: 'node-1' });
    }

    await k.patch('/apis/apps/v1/namespaces/default/deployments/web', {
      spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } } },
    });
    await eventually(
      () =>
        done() &&
        (
          k.api.get('apps/v1', 'Deployment', 'web', 'default')!.metadata.annotations as Record<string, string>
        )['deployment.kubernetes.io/revision'] === '2',
    );
    const sets = k.api.list('apps/v1', 'ReplicaSet', 'default');
    expect(sets.map((rs) => (rs.spec as { replicas: number }).replicas).sort()).toEqual([0, 2]);
    await eventually(() => k.api.list('v1', 'Pod', 'default').length === 2);
  });

  it('complete a Job: its pod succeeds and the Job gets the Complete condition', async () => {
    await k.post('/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'once', namespace: 'default' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    await eventually(
      () =>
        ((k.api.get('batch/v1', 'Job', 'once', 'default')!.status as { succeeded?: number } | undefined)
          ?.succeeded ?? 0) === 1,
    );
    const job = k.api.get('batch/v1', 'Job', 'once', 'default')!;
    expect((job.status as { conditions: unknown[] }).conditions).toContainEqual(
      expect.objectContaining({ type: 'Complete', status: 'True' }),
    );
    const pod = k.api
      .list('v1', 'Pod', 'default')
      .find((p) => (p.metadata.labels as Record<string, string>)['job-name'] === 'once');
    expect(pod?.status).toMatchObject({ phase: 'Succeeded' });
  });
});

describe('the test kubelet', () => {
  it('terminates a pod on a node gracefully: deletionTimestamp and grace period, then gone', async () => {
    await k.post('/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'solo' },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });
    await eventually(
      () => (k.api.get('v1', 'Pod', 'solo', 'default')?.status as { phase?: string })?.phase === 'Running',
    );
    const watch = k.watch(
      `/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dsolo&resourceVersion=${k.api.store.resourceVersion}`,
    );
    await eventually(() => k.api.watchers() > 0);
    const deleted = await k.del('/api/v1/namespaces/default/pods/solo');
    expect(deleted.body).toMatchObject({
      kind: 'Pod',
      metadata: { deletionTimestamp: expect.any(String), deletionGracePeriodSeconds: 30 },
    });
    await eventually(() => watch.events.some((e) => e.type === 'DELETED'));
    watch.stop();
    expect(watch.events.map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'DELETED']);
    expect(watch.events[1]!.object.metadata.deletionGracePeriodSeconds).toBe(0);
  });
});

describe('events from the test controllers', () => {
  it('records the scaling, scheduling and container events kubectl describe shows', async () => {
    const events = (
      await k.get(
        '/api/v1/namespaces/default/events?fieldSelector=involvedObject.kind%3DDeployment,involvedObject.name%3Dweb',
      )
    ).body.items as { reason: string; message: string; source: { component: string } }[];
    expect(events).toContainEqual(
      expect.objectContaining({
        reason: 'ScalingReplicaSet',
        message: expect.stringMatching(/^Scaled up replica set web-\w+ from 0 to 2$/),
        source: { component: 'deployment-controller' },
      }),
    );
    const pod = k.api.list('v1', 'Pod', 'default').find((p) => p.metadata.name.startsWith('web-'))!;
    const podEvents = (
      await k.get(
        `/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3D${pod.metadata.name}`,
      )
    ).body.items as { reason: string }[];
    expect(podEvents.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['Scheduled', 'Pulled', 'Created', 'Started']),
    );
  });
});
