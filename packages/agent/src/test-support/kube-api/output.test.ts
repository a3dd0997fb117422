import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from './test-client.js';

let k: TestClient;
beforeAll(async () => {
  k = await TestClient.start({ deny: (a) => a.verb === 'delete' && a.resource === 'secrets' });
});
afterAll(async () => {
  await k?.close();
});

const TABLE = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
const names = (table: Record<string, unknown>) =>
  (table.columnDefinitions as { name: string; priority: number }[])
    .filter((c) => c.priority === 0)
    .map((c) => c.name);

describe('Table output', () => {
  it('answers the columns kubectl get shows for pods, deployments and other kinds', async () => {
    k.api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
    });
    k.api.setPodPhase('default', 'p', 'Running');
    const pods = (await k.get('/api/v1/namespaces/default/pods', TABLE)).body;
    expect(pods).toMatchObject({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: expect.any(String) },
    });
    expect(names(pods)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age']);
    expect(pods.rows[0].cells.slice(0, 4)).toEqual(['p', '2/2', 'Running', 0]);
    expect(pods.rows[0].object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'p' },
    });

    k.api.put({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'default' },
      spec: { replicas: 2 },
      status: { readyReplicas: 1, updatedReplicas: 2, availableReplicas: 1 },
    });
    const deploy = (await k.get('/apis/apps/v1/namespaces/default/deployments/d', TABLE)).body;
    expect(names(deploy)).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age']);
    expect(deploy.rows[0].cells.slice(0, 4)).toEqual(['d', '1/2', 2, 1]);

    const full = (await k.get('/api/v1/namespaces/default/pods?includeObject=Object', TABLE)).body;
    expect(full.rows[0].object).toMatchObject({ kind: 'Pod', spec: { containers: expect.any(Array) } });
    const none = (await k.get('/api/v1/namespaces/default/pods?includeObject=None', TABLE)).body;
    expect(none.rows[0].object).toBeUndefined();

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
    const widgets = (await k.get('/apis/example.com/v1/namespaces/default/widgets', TABLE)).body;
    expect(names(widgets)).toEqual(['Name', 'Age']);
    // Without the Table media type the answer is the list.
    expect((await k.get('/api/v1/namespaces/default/pods')).body.kind).toBe('PodList');
  });
});

describe('kubectl get all and the other printers', () => {
  it("puts the workload kinds in the 'all' category and prints a CronJob's columns", async () => {
    const apps = (await k.get('/apis/apps/v1')).body.resources as { name: string; categories?: string[] }[];
    expect(apps.find((r) => r.name === 'deployments')?.categories).toEqual(['all']);
    const core = (await k.get('/api/v1')).body.resources as { name: string; categories?: string[] }[];
    expect(core.find((r) => r.name === 'configmaps')?.categories).toBeUndefined();
    k.api.put({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj', namespace: 'default' },
      spec: { schedule: '*/5 * * * *' },
    });
    const table = (await k.get('/apis/batch/v1/namespaces/default/cronjobs', TABLE)).body;
    expect(names(table)).toEqual([
      'Name',
      'Schedule',
      'Timezone',
      'Suspend',
      'Active',
      'Last Schedule',
      'Age',
    ]);
    expect(table.rows[0].cells.slice(0, 6)).toEqual(['cj', '*/5 * * * *', '<none>', 'False', 0, '<none>']);
  });
});

describe('aggregated discovery', () => {
  it('answers apidiscovery.k8s.io/v2 to a client that asks for it first, and the legacy lists otherwise', async () => {
    const accept = {
      accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
    };
    const apis = await k.get('/apis', accept);
    expect(apis.headers.get('content-type')).toBe(
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
    );
    const apps = apis.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'apps');
    const deployments = apps.versions[0].resources.find(
      (r: { resource: string }) => r.resource === 'deployments',
    );
    expect(deployments).toMatchObject({
      responseKind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      scope: 'Namespaced',
      singularResource: 'deployment',
      categories: ['all'],
    });
    expect(deployments.subresources).toContainEqual({
      subresource: 'scale',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: ['get', 'patch', 'update'],
    });
    const core = await k.get('/api', accept);
    expect(core.body.items[0].versions[0].resources).toContainEqual(
      expect.objectContaining({ resource: 'namespaces', scope: 'Cluster' }),
    );
    expect((await k.get('/apis')).body.kind).toBe('APIGroupList');
  });
});

describe('access reviews', () => {
  const review = (verb: string, resource: string) => ({
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { namespace: 'default', verb, resource, group: '' } },
  });

  it('grants by default and refuses what the deny option says, as SelfSubjectAccessReview', async () => {
    const allowed = await k.post(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      review('create', 'configmaps'),
    );
    expect(allowed.status).toBe(201);
    expect(allowed.body).toMatchObject({ kind: 'SelfSubjectAccessReview', status: { allowed: true } });
    const denied = await k.post(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      review('delete', 'secrets'),
    );
    expect(denied.body.status).toMatchObject({ allowed: false });
    const rules = await k.post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'default' },
    });
    const secrets = rules.body.status.resourceRules.find((r: { resources: string[] }) =>
      r.resources.includes('secrets'),
    );
    expect(secrets.verbs).not.toContain('delete');
    expect(secrets.verbs).toContain('get');
    const me = await k.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
    });
    expect(me.body.status.userInfo.username).toEqual(expect.any(String));
  });

  it('lists authorization.k8s.io and authentication.k8s.io in discovery, with create only', async () => {
    const groups = (await k.get('/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups).toEqual(expect.arrayContaining(['authorization.k8s.io', 'authentication.k8s.io']));
    const authz = (await k.get('/apis/authorization.k8s.io/v1')).body.resources;
    expect(authz).toContainEqual(
      expect.objectContaining({ name: 'selfsubjectaccessreviews', verbs: ['create'] }),
    );
    expect((await k.get('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews')).status).toBe(405);
  });
});
