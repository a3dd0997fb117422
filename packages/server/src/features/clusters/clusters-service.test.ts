import { describe, expect, it } from 'vitest';
import type { ClusterCreate, ClusterListQuery } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { hashToken } from '../../platform/keys.js';
import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import {
  AGENT_TOKEN_PREFIX,
  CLUSTER_NAME_TAKEN,
  CLUSTER_NOT_FOUND,
  ClustersService,
} from './clusters-service.js';
import { FakeClustersStore } from './fake-clusters-store.js';
import { HeartbeatSweeper } from './heartbeat-sweeper.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const query = (q: Partial<ClusterListQuery> = {}): ClusterListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});
const input = (over: Partial<ClusterCreate> = {}): ClusterCreate => ({
  name: 'prod',
  type: 'eks',
  publicRegistryPrefix: 'registry.example.com/team',
  ...over,
});

/** An agent gateway with no agents: it only remembers whom it cut off. */
class NoAgents implements AgentGateway {
  readonly disconnected: Array<[string, string]> = [];
  isConnected() {
    return false;
  }
  request(): never {
    throw new Error('no agent');
  }
  stream(): never {
    throw new Error('no agent');
  }
  disconnect(clusterId: string, reason: string) {
    this.disconnected.push([clusterId, reason]);
  }
}

function setup() {
  const store = new FakeClustersStore();
  const gateway = new NoAgents();
  const service = new ClustersService(store, {
    publicUrl: 'https://ci.example.com',
    agentImage: 'slipway/agent:1',
    gateway,
  });
  return { store, gateway, service };
}

describe('ClustersService over the fake store', () => {
  it('creates a cluster waiting for its agent, with an attach manifest whose token only the hash of is kept', async () => {
    const { service, store } = setup();
    const { cluster, attach } = await service.create(WS, input(), 'user-1');
    expect(cluster).toMatchObject({
      name: 'prod',
      type: 'eks',
      status: 'attaching',
      private: false,
      limitedAgentPermission: false,
      allowedNamespaces: ['ozone'],
      selectedNamespaces: [],
    });
    const token = /slpa_[A-Za-z0-9_-]+/.exec(attach.yaml)![0];
    expect(token.startsWith(AGENT_TOKEN_PREFIX)).toBe(true);
    expect(attach.tokenPrefix).toBe(token.slice(0, AGENT_TOKEN_PREFIX.length + 6));
    expect(attach.serverUrl).toBe('https://ci.example.com');
    expect((await store.byId(cluster.id))!.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(cluster)).not.toContain(token);
  });

  it('refuses a name the workspace has (also when the index catches a race), not one another workspace has', async () => {
    const { service, store } = setup();
    await service.create(WS, input(), null);
    await expect(service.create(WS, input(), null)).rejects.toThrow(new ConflictError(CLUSTER_NAME_TAKEN));
    await expect(service.create(OTHER, input(), null)).resolves.toBeTruthy();
    store.nameTaken = async () => false;
    await expect(service.create(WS, input(), null)).rejects.toThrow(CLUSTER_NAME_TAKEN);
  });

  it('validates its input with the contract schema', async () => {
    const { service } = setup();
    await expect(service.create(WS, input({ private: true }), null)).rejects.toThrow();
  });

  it('reattach issues a fresh token, cuts the old agent off and waits again', async () => {
    const { service, store, gateway } = setup();
    const { cluster } = await service.create(WS, input(), null);
    store.report(cluster.id, { status: 'active' });
    const before = (await store.byId(cluster.id))!.tokenHash;
    const attach = await service.reattach(WS, cluster.id);
    const after = (await store.byId(cluster.id))!;
    expect(after.tokenHash).not.toBe(before);
    expect(after).toMatchObject({
      status: 'attaching',
      tokenRevokedAt: null,
      tokenPrefix: attach.tokenPrefix,
    });
    expect(gateway.disconnected).toEqual([[cluster.id, 'a new agent token was issued']]);
  });

  it('selected namespaces must be the cluster’s own and within a limited agent’s', async () => {
    const { service, store } = setup();
    const { cluster } = await service.create(
      WS,
      input({ limitedAgentPermission: true, allowedNamespaces: ['team-a', 'team-b'] }),
      null,
    );
    store.report(cluster.id, { namespaces: ['team-a', 'team-b', 'kube-system'] });
    const err = await service
      .setSelectedNamespaces(WS, cluster.id, ['team-a', 'kube-system'])
      .catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({
      message: 'selectedNamespaces: kube-system is not an allowed namespace of this limited agent',
      details: [{ path: 'body.selectedNamespaces.1' }],
    });
    store.report(cluster.id, { namespaces: ['team-a'] });
    await expect(service.setSelectedNamespaces(WS, cluster.id, ['team-b'])).rejects.toMatchObject({
      message: 'selectedNamespaces: team-b is not a namespace of this cluster',
    });
    expect((await service.setSelectedNamespaces(WS, cluster.id, ['team-a'])).selectedNamespaces).toEqual([
      'team-a',
    ]);
  });

  it('detach revokes the token; remove forgets the cluster; neither reaches another workspace', async () => {
    const { service, gateway } = setup();
    const { cluster } = await service.create(WS, input(), null);
    const notFound = new NotFoundError(CLUSTER_NOT_FOUND);
    await expect(service.detach(OTHER, cluster.id)).rejects.toThrow(notFound);
    await expect(service.remove(OTHER, cluster.id)).rejects.toThrow(notFound);
    await expect(service.get(OTHER, cluster.id)).rejects.toThrow(notFound);
    expect(await service.detach(WS, cluster.id)).toMatchObject({ status: 'detached' });
    await service.remove(WS, cluster.id);
    await expect(service.get(WS, cluster.id)).rejects.toThrow(notFound);
    expect(gateway.disconnected.map(([, reason]) => reason)).toEqual([
      'the cluster was detached',
      'the cluster was removed',
    ]);
  });

  it('lists a page filtered by name and status, with the total', async () => {
    const { service, store } = setup();
    for (const name of ['gamma', 'alpha', 'beta']) await service.create(WS, input({ name }), null);
    const beta = (await service.list(WS, query({ name: 'ET' }))).rows[0]!;
    store.report(beta.id, { status: 'active' });
    expect(await service.list(WS, query({ status: 'active' }))).toMatchObject({
      total: 1,
      rows: [{ name: 'beta' }],
    });
    const page = await service.list(WS, query({ _start: 1, _end: 2, _order: 'DESC' }));
    expect(page).toMatchObject({ total: 3, rows: [{ name: 'beta' }] });
  });
});

describe('HeartbeatSweeper over the fake store', () => {
  it('marks active clusters not active after three of their own missed heartbeats', async () => {
    const { service, store } = setup();
    const now = new Date('2026-05-01T12:00:00Z');
    const ids: Record<string, string> = {};
    for (const name of ['quiet', 'fresh', 'slow', 'never', 'attaching'])
      ids[name] = (await service.create(WS, input({ name }), null)).cluster.id;
    const ago = (s: number) => new Date(now.getTime() - s * 1000);
    store.report(ids.quiet!, { status: 'active', lastHeartbeatAt: ago(91), heartbeatSeconds: 30 });
    store.report(ids.fresh!, { status: 'active', lastHeartbeatAt: ago(89), heartbeatSeconds: 30 });
    store.report(ids.slow!, { status: 'active', lastHeartbeatAt: ago(91), heartbeatSeconds: 60 });
    store.report(ids.never!, { status: 'active', lastHeartbeatAt: null });
    const sweeper = new HeartbeatSweeper(store, 1000, { info: () => {}, error: () => {} });
    expect((await sweeper.sweep(now)).sort()).toEqual([ids.quiet, ids.never].sort());
    expect(await store.byId(ids.quiet!)).toMatchObject({
      status: 'not_active',
      statusMessage: 'Agent not active',
    });
    expect((await store.byId(ids.attaching!))!.status).toBe('attaching');
  });
});
