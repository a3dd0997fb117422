import type { AddressInfo } from 'node:net';
import { and, eq, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  AGENT_CLOSE_CODES,
  AGENT_CONNECT_PATH,
  MESSAGES,
  TOTAL_COUNT_HEADER,
  type Cluster,
  type ClusterAttach,
  type ClusterCreated,
} from '@slipway/contracts';
import { auditEvents, clusters } from '../../platform/database/schema.js';
import { hashToken } from '../../platform/keys.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { memberOf } from '../pipeline-catalogue/catalogue-test-helpers.js';
import { ProtocolPeer, sampleHello } from '../agent-gateway/protocol-peer.test-helper.js';
import { SqlClustersStore } from './clusters-store.js';
import { HeartbeatSweeper } from './heartbeat-sweeper.js';

const configure = {
  name: 'prod-eu',
  type: 'eks',
  publicRegistryPrefix: 'registry.example.com/acme',
};

/** The token and server address inside an attach YAML's Secret. */
function secretOf(yaml: string) {
  const secret = parseAllDocuments(yaml)
    .map((d) => d.toJS() as { kind: string; stringData?: Record<string, string> })
    .find((o) => o.kind === 'Secret');
  return secret!.stringData as { token: string; 'server-url': string; 'cluster-id': string };
}

describe('clusters', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let connectUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ SLIPWAY_PUBLIC_URL: 'https://slipway.example.com' });
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    connectUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${AGENT_CONNECT_PATH}`;
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  async function create(body: object = configure, who = owner): Promise<ClusterCreated> {
    const res = await call('POST', '/api/clusters', who, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as ClusterCreated;
  }

  it('configures a cluster: attaching, with an attach YAML whose token only the hash of is kept', async () => {
    const { cluster, attach } = await create();
    expect(cluster).toMatchObject({
      name: 'prod-eu',
      type: 'eks',
      private: false,
      tunnelConfig: null,
      publicRegistryPrefix: 'registry.example.com/acme',
      limitedAgentPermission: false,
      allowedNamespaces: ['ozone'],
      status: 'attaching',
      lastHeartbeatAt: null,
    });
    expect(attach.fileName).toBe('slipway-agent-prod-eu.yaml');
    expect(attach.command).toBe('kubectl apply -f slipway-agent-prod-eu.yaml');
    const secret = secretOf(attach.yaml);
    expect(secret['server-url']).toBe('https://slipway.example.com');
    expect(secret['cluster-id']).toBe(cluster.id);
    expect(secret.token).toMatch(/^slpa_/);
    expect(secret.token.startsWith(attach.tokenPrefix)).toBe(true);
    expect(cluster.tokenPrefix).toBe(attach.tokenPrefix);

    const [row] = await t.db.database.db.select().from(clusters).where(eq(clusters.id, cluster.id));
    expect(row!.tokenHash).toBe(hashToken(secret.token));
    expect(JSON.stringify(row)).not.toContain(secret.token);
    for (const url of ['/api/clusters', `/api/clusters/${cluster.id}`]) {
      const got = await call('GET', url, owner);
      expect(got.statusCode).toBe(200);
      expect(got.body).not.toContain(secret.token);
    }
    const [audit] = await t.db.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'cluster.create'), eq(auditEvents.targetId, cluster.id)));
    expect(audit).toMatchObject({ outcome: 'success', workspaceId: owner.workspaceId });
    expect(JSON.stringify(audit)).not.toContain(secret.token);
  });

  it("refuses bad input with the spec's messages, naming the field", async () => {
    const cases: Array<[object, string, string]> = [
      [{ ...configure, name: undefined }, 'body.name', MESSAGES.nameRequired],
      [{ ...configure, name: 'other', type: undefined }, 'body.type', MESSAGES.clusterTypeRequired],
      [{ ...configure, name: 'other', type: 'openshift' }, 'body.type', MESSAGES.clusterTypeRequired],
      [
        { ...configure, name: 'other', publicRegistryPrefix: '' },
        'body.publicRegistryPrefix',
        MESSAGES.publicRegistryPrefixRequired,
      ],
      [{ ...configure, name: 'other', private: true }, 'body.tunnelConfig', MESSAGES.tunnelConfigRequired],
      [
        { ...configure, name: 'other', limitedAgentPermission: true, allowedNamespaces: ['Not_OK'] },
        'body.allowedNamespaces.0',
        'Namespace must be lowercase letters',
      ],
    ];
    for (const [body, path, message] of cases) {
      const res = await call('POST', '/api/clusters', owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const err = res.json() as { message: string; details: { path: string; message: string }[] };
      expect(err.details).toContainEqual({ path, message: expect.stringContaining(message) });
    }
    expect((await call('POST', '/api/clusters', owner, configure)).statusCode).toBe(409);
    const list = await call('GET', '/api/clusters?name=other', owner);
    expect(list.json()).toEqual([]);
  });

  it('keeps the tunnel config of a private cluster and lists with X-Total-Count', async () => {
    const { cluster } = await create({
      ...configure,
      name: 'private-one',
      type: 'aks',
      private: true,
      tunnelConfig: 'openziti://tunnel/abc',
      limitedAgentPermission: true,
      allowedNamespaces: ['ozone', 'team-a'],
    });
    expect(cluster).toMatchObject({
      private: true,
      tunnelConfig: 'openziti://tunnel/abc',
      limitedAgentPermission: true,
      allowedNamespaces: ['ozone', 'team-a'],
    });
    const list = await call('GET', '/api/clusters?_start=0&_end=1&_sort=name&_order=ASC', owner);
    expect(list.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    expect((list.json() as Cluster[]).map((c) => c.name)).toEqual(['private-one']);
  });

  it('answers 404 for another workspace, and 403 without the permission', async () => {
    const { cluster } = await create({ ...configure, name: 'mine' });
    for (const [method, url] of [
      ['GET', `/api/clusters/${cluster.id}`],
      ['POST', `/api/clusters/${cluster.id}/attach`],
      ['POST', `/api/clusters/${cluster.id}/detach`],
      ['DELETE', `/api/clusters/${cluster.id}`],
    ] as const) {
      expect((await call(method, url, stranger)).statusCode).toBe(404);
    }
    expect((await call('GET', '/api/clusters', stranger)).json()).toEqual([]);
    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    expect((await call('GET', `/api/clusters/${cluster.id}`, viewer)).statusCode).toBe(200);
    expect((await call('POST', '/api/clusters', viewer, { ...configure, name: 'v' })).statusCode).toBe(403);
    expect((await call('POST', `/api/clusters/${cluster.id}/detach`, viewer)).statusCode).toBe(403);
  });

  it('goes active when its agent says hello, not active after three missed heartbeats, and back', async () => {
    const { cluster, attach } = await create({ ...configure, name: 'live' });
    const agent = await ProtocolPeer.connect(connectUrl, secretOf(attach.yaml).token);
    agent.send(sampleHello({ installedAddons: ['tekton', 'argocd'], heartbeatSeconds: 1 }));
    await agent.next('welcome');
    let got = (await call('GET', `/api/clusters/${cluster.id}`, owner)).json() as Cluster;
    expect(got).toMatchObject({
      status: 'active',
      kubernetesVersion: 'v1.31.2',
      nodeCount: 2,
      totalVcpu: 8,
      agentVersion: '0.1.0',
      namespaces: ['default', 'ozone'],
      installedResources: [1, 3],
      storageOptions: [
        {
          name: 'standard',
          provisioner: 'rancher.io/local-path',
          reclaimPolicy: 'Delete',
          bindingMode: 'WaitForFirstConsumer',
          default: true,
        },
      ],
    });
    const last = new Date(got.lastHeartbeatAt!);
    const sweeper = new HeartbeatSweeper(new SqlClustersStore(t.db.database.db), 1000, {
      info: () => undefined,
      error: () => undefined,
    });
    // Two missed heartbeats: still active. Three: not active.
    expect(await sweeper.sweep(new Date(last.getTime() + 2500))).not.toContain(cluster.id);
    expect(await sweeper.sweep(new Date(last.getTime() + 3500))).toContain(cluster.id);
    got = (await call('GET', `/api/clusters/${cluster.id}`, owner)).json() as Cluster;
    expect(got).toMatchObject({ status: 'not_active', statusMessage: MESSAGES.agentNotActive });

    agent.send({ type: 'heartbeat', seq: 1, at: new Date().toISOString() });
    await agent.next('heartbeat_ack');
    await expect
      .poll(async () => ((await call('GET', `/api/clusters/${cluster.id}`, owner)).json() as Cluster).status)
      .toBe('active');
    agent.close();
  });

  it('allows each agent three of its own heartbeat intervals before it is not active', async () => {
    const slow = await create({ ...configure, name: 'slow-beat' });
    const quick = await create({ ...configure, name: 'quick-beat' });
    const slowAgent = await ProtocolPeer.connect(connectUrl, secretOf(slow.attach.yaml).token);
    slowAgent.send(sampleHello({ heartbeatSeconds: 120 }));
    await slowAgent.next('welcome');
    const quickAgent = await ProtocolPeer.connect(connectUrl, secretOf(quick.attach.yaml).token);
    quickAgent.send(sampleHello({ heartbeatSeconds: 30 }));
    await quickAgent.next('welcome');
    const stored = async (id: string) =>
      (await t.db.database.db.select().from(clusters).where(eq(clusters.id, id)))[0]!;
    expect((await stored(slow.cluster.id)).heartbeatSeconds).toBe(120);
    expect((await stored(quick.cluster.id)).heartbeatSeconds).toBe(30);
    // Both beat at the same moment, then nothing.
    const last = new Date();
    await t.db.database.db
      .update(clusters)
      .set({ lastHeartbeatAt: last })
      .where(or(eq(clusters.id, slow.cluster.id), eq(clusters.id, quick.cluster.id)));
    const sweeper = new HeartbeatSweeper(new SqlClustersStore(t.db.database.db), 30_000, {
      info: () => undefined,
      error: () => undefined,
    });
    // 100 s of silence: three 30 s beats missed, not one 120 s beat.
    const after100 = await sweeper.sweep(new Date(last.getTime() + 100_000));
    expect(after100).toContain(quick.cluster.id);
    expect(after100).not.toContain(slow.cluster.id);
    expect((await stored(slow.cluster.id)).status).toBe('active');
    expect(await sweeper.sweep(new Date(last.getTime() + 3 * 120_000 - 1_000))).not.toContain(
      slow.cluster.id,
    );
    expect(await sweeper.sweep(new Date(last.getTime() + 3 * 120_000 + 1_000))).toContain(slow.cluster.id);
    expect((await stored(slow.cluster.id)).status).toBe('not_active');
    slowAgent.close();
    quickAgent.close();
  });

  it('chooses namespaces for logs among the cluster’s own', async () => {
    const { cluster, attach } = await create({ ...configure, name: 'logs' });
    const agent = await ProtocolPeer.connect(connectUrl, secretOf(attach.yaml).token);
    agent.send(sampleHello({ namespaces: ['default', 'ozone', 'shop'] }));
    await agent.next('welcome');
    const url = `/api/clusters/${cluster.id}/namespaces`;
    const bad = await call('PUT', url, owner, { selectedNamespaces: ['default', 'nope'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      message: 'selectedNamespaces: nope is not a namespace of this cluster',
      details: [{ path: 'body.selectedNamespaces.1' }],
    });
    const ok = await call('PUT', url, owner, { selectedNamespaces: ['shop', 'default', 'shop'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as Cluster).selectedNamespaces).toEqual(['shop', 'default']);
    agent.close();
  });

  it('detach revokes the token: the agent is cut off and cannot come back', async () => {
    const { cluster, attach } = await create({ ...configure, name: 'leaving' });
    const token = secretOf(attach.yaml).token;
    const agent = await ProtocolPeer.connect(connectUrl, token);
    agent.send(sampleHello());
    await agent.next('welcome');
    const res = await call('POST', `/api/clusters/${cluster.id}/detach`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'detached' });
    expect((await agent.closed).code).toBe(AGENT_CLOSE_CODES.disconnected);
    await expect(ProtocolPeer.connect(connectUrl, token)).rejects.toMatchObject({ status: 401 });
    const [row] = await t.db.database.db.select().from(clusters).where(eq(clusters.id, cluster.id));
    expect(row!.tokenRevokedAt).toBeInstanceOf(Date);

    // Attaching again issues a new token that works; the old one still does not.
    const again = await call('POST', `/api/clusters/${cluster.id}/attach`, owner);
    expect(again.statusCode, again.body).toBe(200);
    const fresh = secretOf((again.json() as ClusterAttach).yaml).token;
    expect(fresh).not.toBe(token);
    expect((await call('GET', `/api/clusters/${cluster.id}`, owner)).json()).toMatchObject({
      status: 'attaching',
    });
    await expect(ProtocolPeer.connect(connectUrl, token)).rejects.toMatchObject({ status: 401 });
    const back = await ProtocolPeer.connect(connectUrl, fresh);
    back.send(sampleHello());
    await back.next('welcome');
    back.close();
  });

  it('removes a cluster', async () => {
    const { cluster } = await create({ ...configure, name: 'gone' });
    expect((await call('DELETE', `/api/clusters/${cluster.id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/clusters/${cluster.id}`, owner)).statusCode).toBe(404);
  });
});
