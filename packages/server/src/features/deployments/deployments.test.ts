import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINISHED_RUN_STATUSES, type EnvironmentDetail, type PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { attachCluster, type AttachedCluster } from '../clusters/attached-agent.test-helper.js';
import { insertPipeline, waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';
import { WorkspaceClaimsReaper } from '../pipelines/executor/kubernetes-executor-claims.js';
import { DeploymentsStore } from './deployments-store.js';
import { HealthTracker } from './health-tracker.js';
import { appNameOf, parseManifests, setImageTag, withPullSecret } from './manifests.js';

const MANIFESTS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop
  labels: { app.kubernetes.io/name: shop }
spec:
  replicas: 2
  selector: { matchLabels: { app: shop } }
  template:
    metadata: { labels: { app: shop } }
    spec:
      containers:
        - name: web
          image: registry.example.com/acme/shop:latest
---
apiVersion: v1
kind: Service
metadata: { name: shop }
spec:
  selector: { app: shop }
  ports: [{ port: 80 }]
`;

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: roll-out }
spec:
  params:
    - name: tag
      type: string
    - name: manifests
      type: string
  tasks:
    - name: deploy
      taskRef: { name: deploy }
      params:
        - { name: manifests, value: $(params.manifests) }
        - { name: image, value: registry.example.com/acme/shop }
        - { name: tag, value: $(params.tag) }
`;

describe('deploying through a pipeline to an environment on an attached cluster', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;
  let environmentId: string;
  let pipelineId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner, { name: 'prod' });
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    const envs = (await call('GET', '/api/environments?name=staging')).json() as EnvironmentDetail[];
    environmentId = envs[0]!.id;
    const bound = await call('PUT', `/api/environments/${environmentId}`, {
      clusterId: cluster.clusterId,
      namespace: 'shop',
    });
    expect(bound.statusCode, bound.body).toBe(200);
    pipelineId = await insertPipeline(t.db.database, owner.workspaceId, PIPELINE, { name: 'roll-out' });
  });
  afterAll(async () => {
    await cluster.close();
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
  const run = async (body: object) => {
    const res = await call('POST', '/api/pipelineruns', { pipelineId, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const finished = (id: string) =>
    waitFor(async () => {
      const r = (await call('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return (FINISHED_RUN_STATUSES as readonly string[]).includes(r.status) && r;
    }, 30_000);

  it('applies the manifests with the new tag, waits until healthy and records the deployment', async () => {
    const id = await run({ environmentId, params: { tag: '1.4.2', manifests: MANIFESTS } });
    // The rollout is applied through the agent; the test plays the controller and makes it ready.
    await expect
      .poll(() => cluster.api.get('apps/v1', 'Deployment', 'shop', 'shop'), { timeout: 15_000 })
      .toBeTruthy();
    const deployment = cluster.api.get('apps/v1', 'Deployment', 'shop', 'shop')!;
    expect(JSON.stringify(deployment)).toContain('registry.example.com/acme/shop:1.4.2');
    expect(JSON.stringify(deployment.metadata)).toContain('slipway');
    await expect
      .poll(() => cluster.api.get('v1', 'Service', 'shop', 'shop'), { timeout: 10_000 })
      .toBeTruthy();
    // Still rolling out: the deployment is recorded as progressing.
    await expect
      .poll(
        async () =>
          ((await call('GET', `/api/environments/${environmentId}`)).json() as EnvironmentDetail)
            .deployments[0]?.health,
        { timeout: 10_000 },
      )
      .toBe('progressing');
    cluster.api.setStatus('apps/v1', 'Deployment', 'shop', 'shop', {
      observedGeneration: (deployment.metadata as { generation?: number }).generation ?? 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    });
    const done = await finished(id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.taskRuns[0]!.results).toMatchObject({ health: 'healthy' });
    const env = (await call('GET', `/api/environments/${environmentId}`)).json() as EnvironmentDetail;
    expect(env.deployments).toEqual([
      expect.objectContaining({
        name: 'shop',
        namespace: 'shop',
        image: 'registry.example.com/acme/shop:1.4.2',
        health: 'healthy',
        runId: id,
      }),
    ]);
    const logs = await call('GET', `/api/pipelineruns/${id}/logs?task=deploy`);
    expect(logs.body).toContain('applied Deployment shop/shop');
    expect(logs.body).toContain('shop is healthy');
  });

  it("runs a run's other tasks as pods on the environment's cluster (Kubernetes executor)", async () => {
    const script = await insertPipeline(
      t.db.database,
      owner.workspaceId,
      `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: on-cluster }
spec:
  tasks:
    - name: check
      taskSpec:
        steps:
          - name: say
            image: alpine:3.20
            script: echo hello from the cluster
`,
      { name: 'on-cluster' },
    );
    const res = await call('POST', '/api/pipelineruns', { pipelineId: script, environmentId });
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { id: string }).id;
    let podName = '';
    await expect
      .poll(() => (podName = cluster.api.list('v1', 'Pod', 'shop')[0]?.metadata.name ?? ''), {
        timeout: 15_000,
      })
      .not.toBe('');
    cluster.api.appendLog('shop', podName, 'step-say', 'hello from the cluster\n');
    cluster.api.setPodPhase('shop', podName, 'Running');
    await new Promise((r) => setTimeout(r, 300));
    cluster.api.setPodPhase('shop', podName, 'Succeeded', {
      terminationMessages: { 'step-say': 'exitCode:0' },
    });
    const done = await finished(id);
    expect(done.status).toBe('succeeded');
    const logs = await call('GET', `/api/pipelineruns/${id}/logs?task=check`);
    expect(logs.body).toContain('hello from the cluster');
    expect(cluster.api.list('v1', 'Pod', 'shop')).toEqual([]);
  });

  it("shares a run's workspace between its pods on a claim, removed once the run has ended", async () => {
    const shared = await insertPipeline(
      t.db.database,
      owner.workspaceId,
      `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: shared-ws }
spec:
  workspaces: [{ name: src }]
  tasks:
    - name: write
      workspaces: [{ name: s, workspace: src }]
      taskSpec:
        workspaces: [{ name: s }]
        steps:
          - name: put
            image: alpine:3.20
            script: echo hi > $(workspaces.s.path)/file
`,
      { name: 'shared-ws' },
    );
    const res = await call('POST', '/api/pipelineruns', { pipelineId: shared, environmentId });
    const id = (res.json() as { id: string }).id;
    let podName = '';
    await expect
      .poll(() => (podName = cluster.api.list('v1', 'Pod', 'shop')[0]?.metadata.name ?? ''), {
        timeout: 15_000,
      })
      .not.toBe('');
    const claims = () => cluster.api.list('v1', 'PersistentVolumeClaim', 'shop').map((c) => c.metadata.name);
    expect(claims()).toHaveLength(1);
    const reaper = new WorkspaceClaimsReaper(t.db.database.db, t.app.agentGateway, 1000, {
      error: () => undefined,
    });
    expect(await reaper.reap()).toEqual([]);
    cluster.api.setPodPhase('shop', podName, 'Succeeded', {
      terminationMessages: { 'step-put': 'exitCode:0' },
    });
    expect((await finished(id)).status).toBe('succeeded');
    const [claim] = claims();
    expect(await reaper.reap()).toEqual([`shop/${claim}`]);
    expect(claims()).toEqual([]);
  });

  it('follows health after the rollout: the tracker sees it degrade', async () => {
    cluster.api.setStatus('apps/v1', 'Deployment', 'shop', 'shop', {
      observedGeneration: 99,
      conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }],
    });
    const deployment = cluster.api.get('apps/v1', 'Deployment', 'shop', 'shop')!;
    (deployment.metadata as { generation?: number }).generation = 1;
    const tracker = new HealthTracker(new DeploymentsStore(t.db.database.db), t.app.agentGateway, 1, {
      error: () => undefined,
    });
    expect(await tracker.check(new Date(Date.now() + 10))).toBe(1);
    const env = (await call('GET', `/api/environments/${environmentId}`)).json() as EnvironmentDetail;
    expect(env.deployments[0]).toMatchObject({ health: 'degraded' });
    expect(env.deployments[0]!.healthMessage).toContain('exceeded its progress deadline');
  });

  it('will not overwrite a field someone changed in the cluster, and says who in the run log', async () => {
    // `kubectl edit` (or `kubectl scale`) on the live Deployment: an Update by another manager.
    const edit = await fetch(
      `${cluster.api.url}/apis/apps/v1/namespaces/shop/deployments/shop?fieldManager=kubectl-edit`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { replicas: 5 } }),
      },
    );
    expect(edit.status, await edit.text()).toBe(200);
    const done = await finished(await run({ environmentId, params: { tag: '1.4.3', manifests: MANIFESTS } }));
    expect(done.status).toBe('failed');
    const logs = await call('GET', `/api/pipelineruns/${done.id}/logs?task=deploy`);
    expect(logs.body).toContain(
      'apply failed: Deployment shop: field .spec.replicas is managed by "kubectl-edit"; Slipway will not overwrite it. Remove the field from the manifest, or take ownership in the cluster',
    );
    const live = cluster.api.get('apps/v1', 'Deployment', 'shop', 'shop')!;
    expect((live.spec as { replicas?: number }).replicas).toBe(5);
    expect(JSON.stringify(live)).not.toContain('shop:1.4.3');
  });

  it("takes back a field Slipway's own earlier update holds, and says so in the run log", async () => {
    // An Update under Slipway's name (not its apply) now holds .spec.replicas, with another value.
    const update = await fetch(
      `${cluster.api.url}/apis/apps/v1/namespaces/shop/deployments/shop?fieldManager=slipway`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { replicas: 3 } }),
      },
    );
    expect(update.status, await update.text()).toBe(200);
    // The controller has not seen the new spec yet (an earlier test left the rollout degraded).
    cluster.api.setStatus('apps/v1', 'Deployment', 'shop', 'shop', {});
    const id = await run({ environmentId, params: { tag: '1.4.4', manifests: MANIFESTS } });
    await expect
      .poll(() => JSON.stringify(cluster.api.get('apps/v1', 'Deployment', 'shop', 'shop')), {
        timeout: 15_000,
      })
      .toContain('shop:1.4.4');
    const live = cluster.api.get('apps/v1', 'Deployment', 'shop', 'shop')!;
    expect((live.spec as { replicas?: number }).replicas).toBe(2);
    cluster.api.setStatus('apps/v1', 'Deployment', 'shop', 'shop', {
      observedGeneration: (live.metadata as { generation?: number }).generation ?? 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    });
    const done = await finished(id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    const logs = await call('GET', `/api/pipelineruns/${id}/logs?task=deploy`);
    expect(logs.body).toContain('applied Deployment shop/shop (took back .spec.replicas from "slipway")');
  });

  it("fails with 'Environment is required' when the run names no environment", async () => {
    const done = await finished(await run({ params: { tag: '1', manifests: MANIFESTS } }));
    expect(done.status).toBe('failed');
    const logs = await call('GET', `/api/pipelineruns/${done.id}/logs?task=deploy`);
    expect(logs.body).toContain('Environment is required');
  });

  it('refuses manifests that break the Kubernetes schema, naming the object', async () => {
    const bad = MANIFESTS.replace('replicas: 2', 'replicas: two');
    const done = await finished(await run({ environmentId, params: { tag: '1', manifests: bad } }));
    expect(done.status).toBe('failed');
    const logs = await call('GET', `/api/pipelineruns/${done.id}/logs?task=deploy`);
    expect(logs.body).toContain('manifests: Deployment shop: data/spec/replicas must be integer');
  });

  it('sets the tag on the containers that run the image, and names the app', () => {
    const objects = parseManifests(MANIFESTS);
    expect(setImageTag(objects, 'registry.example.com/acme/shop', 'sha256:abc')).toBe(1);
    expect(JSON.stringify(objects)).toContain('registry.example.com/acme/shop@sha256:abc');
    expect(setImageTag(objects, 'other/image', '1')).toBe(0);
    expect(appNameOf(objects, '')).toBe('shop');
    expect(() => parseManifests('kind: Pod')).toThrow('document 1 needs apiVersion, kind and metadata.name');
  });

  it('names a pull secret in every pod spec once and makes it in each namespace a workload goes to', () => {
    const objects = parseManifests(`${MANIFESTS}
---
apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly, namespace: jobs }
spec:
  schedule: "0 1 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          imagePullSecrets: [{ name: slipway-pull-registry-pull }]
          containers: [{ name: run, image: registry.example.com/acme/shop:1 }]
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings }
data: { a: b }
`);
    const config = JSON.stringify({ auths: { 'registry.example.com': { auth: 'eDp5' } } });
    const secrets = withPullSecret(objects, 'registry-pull', config, 'shop');
    expect(secrets.map((s) => [s.metadata.name, s.metadata.namespace])).toEqual([
      ['slipway-pull-registry-pull', 'shop'],
      ['slipway-pull-registry-pull', 'jobs'],
    ]);
    const data = (secrets[0] as unknown as { type: string; data: Record<string, string> }).data;
    expect(Buffer.from(data['.dockerconfigjson']!, 'base64').toString()).toBe(config);
    const pulls = JSON.stringify(objects).match(/slipway-pull-registry-pull/g) ?? [];
    // the Deployment got it; the CronJob already had it and did not get it twice
    expect(pulls).toHaveLength(2);
    expect(JSON.stringify(objects[objects.length - 1])).not.toContain('imagePullSecrets');
  });
});
