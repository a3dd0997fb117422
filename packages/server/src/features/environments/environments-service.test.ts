import { describe, expect, it } from 'vitest';
import type { EnvironmentListQuery } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { FakeClustersStore } from '../clusters/fake-clusters-store.js';
import {
  ENVIRONMENT_NAME_TAKEN,
  ENVIRONMENT_NOT_FOUND,
  EnvironmentsService,
} from './environments-service.js';
import { FakeEnvironmentsStore } from './fake-environments-store.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const query = (q: Partial<EnvironmentListQuery> = {}): EnvironmentListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

async function setup() {
  const clusters = new FakeClustersStore();
  const store = new FakeEnvironmentsStore(clusters);
  await clusters.insert({ id: 'c-open', workspaceId: WS, name: 'open', type: 'eks' });
  await clusters.insert({
    id: 'c-limited',
    workspaceId: WS,
    name: 'limited',
    type: 'eks',
    limitedAgentPermission: true,
    allowedNamespaces: ['team-a'],
  });
  await clusters.insert({ id: 'c-theirs', workspaceId: OTHER, name: 'theirs', type: 'eks' });
  clusters.report('c-open', { status: 'active' });
  return { clusters, store, service: new EnvironmentsService(store, clusters) };
}

describe('EnvironmentsService over the fake stores', () => {
  it('creates an environment bound to a cluster namespace, read with the cluster and its deployments', async () => {
    const { service, store } = await setup();
    const env = await service.create(WS, {
      name: 'prod',
      type: 'production',
      clusterId: 'c-open',
      namespace: 'shop',
    });
    expect(env).toMatchObject({
      name: 'prod',
      description: '',
      clusterId: 'c-open',
      clusterName: 'open',
      clusterStatus: 'active',
      namespace: 'shop',
      deployments: [],
    });
    store.addDeployment({
      id: 'd1',
      workspaceId: WS,
      environmentId: env.id,
      name: 'web',
      namespace: 'shop',
      deployedAt: new Date('2026-01-01'),
    });
    store.addDeployment({
      id: 'd2',
      workspaceId: WS,
      environmentId: env.id,
      name: 'api',
      namespace: 'shop',
      health: 'weird',
    });
    const detail = await service.get(WS, env.id);
    expect(detail.deployments.map((d) => [d.name, d.health])).toEqual([
      ['api', 'unknown'],
      ['web', 'unknown'],
    ]);
  });

  it('without a cluster there is no namespace', async () => {
    const { service } = await setup();
    const env = await service.create(WS, { name: 'dev', type: 'development', namespace: 'ignored' });
    expect(env).toMatchObject({ clusterId: null, clusterName: null, clusterStatus: null, namespace: null });
  });

  it("refuses another workspace's cluster and a namespace a limited agent may not use", async () => {
    const { service } = await setup();
    const err = await service.create(WS, { name: 'x', type: 'other', clusterId: 'c-theirs' }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({
      message: 'clusterId: no such cluster in this workspace',
      details: [{ path: 'body.clusterId', message: 'no such cluster in this workspace' }],
    });
    await expect(
      service.create(WS, { name: 'x', type: 'other', clusterId: 'c-limited', namespace: 'team-b' }),
    ).rejects.toMatchObject({
      message: 'namespace: team-b is not an allowed namespace of this limited agent',
    });
    await expect(
      service.create(WS, { name: 'x', type: 'other', clusterId: 'c-limited', namespace: 'team-a' }),
    ).resolves.toMatchObject({ clusterName: 'limited' });
  });

  it('keeps names unique in the workspace, on create, rename and when the index catches a race', async () => {
    const { service, store } = await setup();
    await service.create(WS, { name: 'prod', type: 'production' });
    const staging = await service.create(WS, { name: 'staging', type: 'staging' });
    const taken = new ConflictError(ENVIRONMENT_NAME_TAKEN);
    await expect(service.create(WS, { name: 'prod', type: 'production' })).rejects.toThrow(taken);
    await expect(service.update(WS, staging.id, { name: 'prod' })).rejects.toThrow(taken);
    await expect(service.create(OTHER, { name: 'prod', type: 'production' })).resolves.toBeTruthy();
    store.nameTaken = async () => false;
    await expect(service.update(WS, staging.id, { name: 'prod' })).rejects.toThrow(taken);
  });

  it('an update changes the binding only when it is given; another workspace’s environment is not found', async () => {
    const { service } = await setup();
    const env = await service.create(WS, {
      name: 'prod',
      type: 'production',
      clusterId: 'c-open',
      namespace: 'shop',
    });
    expect(await service.update(WS, env.id, { description: 'live' })).toMatchObject({
      description: 'live',
      clusterId: 'c-open',
      namespace: 'shop',
    });
    expect(await service.update(WS, env.id, { clusterId: null })).toMatchObject({
      clusterId: null,
      namespace: null,
    });
    const notFound = new NotFoundError(ENVIRONMENT_NOT_FOUND);
    await expect(service.get(OTHER, env.id)).rejects.toThrow(notFound);
    await expect(service.update(OTHER, env.id, { description: 'x' })).rejects.toThrow(notFound);
    await expect(service.remove(OTHER, env.id)).rejects.toThrow(notFound);
    await service.remove(WS, env.id);
    await expect(service.get(WS, env.id)).rejects.toThrow(notFound);
  });

  it('a removed cluster leaves its environments without one', async () => {
    const { service, clusters, store } = await setup();
    const env = await service.create(WS, {
      name: 'prod',
      type: 'production',
      clusterId: 'c-open',
      namespace: 'shop',
    });
    await clusters.delete('c-open');
    expect(await service.get(WS, env.id)).toMatchObject({ clusterId: null, clusterName: null });
    expect((await store.byId(env.id))!.clusterId).toBeNull();
  });

  it('lists a page filtered by name and cluster, with the total', async () => {
    const { service } = await setup();
    await service.create(WS, { name: 'prod', type: 'production', clusterId: 'c-open', namespace: 'a' });
    await service.create(WS, { name: 'preprod', type: 'staging', clusterId: 'c-open', namespace: 'b' });
    await service.create(WS, { name: 'dev', type: 'development' });
    expect(await service.list(WS, query({ clusterId: 'c-open' }))).toMatchObject({
      total: 2,
      rows: [{ name: 'preprod' }, { name: 'prod' }],
    });
    expect(
      (await service.list(WS, query({ name: 'PROD', _order: 'DESC', _end: 1 }))).rows.map((e) => e.name),
    ).toEqual(['prod']);
    expect((await service.list(OTHER, query())).total).toBe(0);
  });
});
