import { beforeEach, describe, expect, it } from 'vitest';
import { FakeApplicationsStore } from './fake-applications-store.js';
import {
  APPLICATION_NAME_TAKEN,
  ApplicationsService,
  worstHealth,
  type ApplicationInput,
} from './applications-service.js';

const WS = 'ws-1';
const at = (iso: string) => new Date(iso);

/** The applications service over the fake store (decision 030). */
describe('ApplicationsService', () => {
  let store: FakeApplicationsStore;
  let service: ApplicationsService;
  const input = (name: string, extra: Partial<ApplicationInput> = {}): ApplicationInput => ({
    name,
    description: '',
    repositoryId: 'repo-1',
    branch: 'main',
    image: `registry.example.com/acme/${name}`,
    pipelineId: 'pipe-1',
    serviceType: 'ClusterIP',
    port: 8080,
    namespace: 'shop',
    environmentIds: ['env-dev', 'env-prod'],
    serviceUrl: null,
    ...extra,
  });

  beforeEach(() => {
    store = new FakeApplicationsStore();
    store.repositories.set('repo-1', { workspaceId: WS, name: 'orders', kind: 'hosted', url: null });
    store.pipelines.set('pipe-1', { workspaceId: WS, name: 'build' });
    store.environmentNames.set('env-dev', { workspaceId: WS, name: 'development' });
    store.environmentNames.set('env-prod', { workspaceId: WS, name: 'production' });
    store.environmentNames.set('env-other', { workspaceId: 'ws-2', name: 'theirs' });
    service = new ApplicationsService(store, {
      repositoryUrl: (ws, r) =>
        r.kind === 'hosted' ? `https://slipway.example/git/${ws}/${r.name}.git` : (r.url ?? ''),
      imageTags: async () => [{ tag: 'v1', digest: 'sha256:x', updatedAt: '2025-01-01T00:00:00.000Z' }],
    });
  });

  it('answers the worst health first, unknown for nothing deployed', () => {
    expect(worstHealth([])).toBe('unknown');
    expect(worstHealth(['healthy', 'progressing'])).toBe('progressing');
    expect(worstHealth(['healthy', 'missing', 'degraded'])).toBe('degraded');
  });

  it('creates with its links, answering names, URLs, runs and tags', async () => {
    store.runRows.push({
      id: 'r1',
      name: 'build-1',
      status: 'succeeded',
      trigger: { kind: 'push', id: 'x' },
      queuedAt: at('2025-01-01T00:00:00Z'),
      startedAt: null,
      finishedAt: null,
      workspaceId: WS,
      pipelineId: 'pipe-1',
    });
    const app = await service.create(WS, input('orders'), 'u1');
    expect(app).toMatchObject({
      repositoryName: 'orders',
      repositoryUrl: 'https://slipway.example/git/ws-1/orders.git',
      pipelineName: 'build',
      health: 'unknown',
      runs: [{ id: 'r1', trigger: { kind: 'push' } }],
      imageTags: [{ tag: 'v1' }],
    });
    expect(app.environments.map((e) => e.environmentName)).toEqual(['development', 'production']);
    await expect(service.create(WS, input('orders'), 'u1')).rejects.toThrow(APPLICATION_NAME_TAKEN);
  });

  it('refuses another workspace’s environment, repository or pipeline, naming the field', async () => {
    await expect(
      service.create(WS, input('a', { environmentIds: ['env-other'] }), null),
    ).rejects.toMatchObject({
      details: [{ path: 'body.environmentIds' }],
    });
    await expect(service.create(WS, input('a', { repositoryId: 'nope' }), null)).rejects.toMatchObject({
      details: [{ path: 'body.repositoryId' }],
    });
    await expect(service.create(WS, input('a', { pipelineId: 'nope' }), null)).rejects.toMatchObject({
      details: [{ path: 'body.pipelineId' }],
    });
    expect((await store.list(WS, { _start: 0, _end: 10, _sort: 'name', _order: 'ASC' })).total).toBe(0);
  });

  it('reads each environment’s health from its deployment record', async () => {
    const app = await service.create(WS, input('cart'), null);
    store.deploymentRows.push({
      id: 'd1',
      workspaceId: WS,
      environmentId: 'env-prod',
      name: 'cart',
      namespace: 'shop',
      resources: [],
      image: 'registry.example.com/acme/cart:1',
      health: 'degraded',
      healthMessage: '0 of 2 ready',
      runId: 'r9',
      deployedAt: at('2025-01-02T00:00:00Z'),
      healthCheckedAt: null,
    });
    const got = await service.get(WS, app.id);
    expect(got.health).toBe('degraded');
    expect(got.environments.map((e) => [e.environmentName, e.health, e.healthMessage])).toEqual([
      ['development', 'unknown', 'Not deployed yet'],
      ['production', 'degraded', '0 of 2 ready'],
    ]);
  });

  it('updates given fields and the environment list, and removes', async () => {
    const app = await service.create(WS, input('search'), null);
    const changed = await service.update(WS, app.id, {
      port: 9090,
      environmentIds: ['env-dev'],
      pipelineId: null,
    });
    expect(changed).toMatchObject({ port: 9090, pipelineId: null, namespace: 'shop', image: app.image });
    expect(changed.environments.map((e) => e.environmentId)).toEqual(['env-dev']);
    await service.remove(WS, app.id);
    await expect(service.get(WS, app.id)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('pages the spec’s service types', () => {
    expect(
      service.serviceTypes({ _start: 0, _end: 100, _sort: 'id', _order: 'ASC' }).rows.map((s) => s.name),
    ).toEqual(['ClusterIP', 'NodePort', 'LoadBalancer', 'Headless']);
    expect(service.serviceTypes({ _start: 1, _end: 2, _sort: 'id', _order: 'DESC' })).toMatchObject({
      rows: [{ name: 'LoadBalancer' }],
      total: 4,
    });
  });
});
