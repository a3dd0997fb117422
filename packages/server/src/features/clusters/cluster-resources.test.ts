import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  MESSAGES,
  podStreamFrameSchema,
  type ClusterCreated,
  type ClusterResourceDetail,
  type ClusterResourceKind,
  type ClusterResourceSummary,
  type PodStreamFrame,
} from '@slipway/contracts';
import { auditEvents } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { memberOf } from '../pipeline-catalogue/catalogue-test-helpers.js';
import { attachCluster, type AttachedCluster } from './attached-agent.test-helper.js';

const pod = (name: string, namespace: string, containers = ['app']) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { containers: containers.map((c) => ({ name: c, image: 'nginx:1.27' })) },
});

/** A browser-side socket to the server, with the session's headers. */
function openSocket(t: TestApp, who: TestUser, path: string) {
  const port = (t.app.server.address() as AddressInfo).port;
  const socket = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers: who.headers });
  const frames: PodStreamFrame[] = [];
  const ended = new Promise<PodStreamFrame>((resolve) => {
    socket.on('message', (raw) => {
      const frame = podStreamFrameSchema.parse(JSON.parse(String(raw)));
      frames.push(frame);
      if (frame.type === 'end') resolve(frame);
    });
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const output = () => frames.map((f) => (f.type === 'data' ? f.data : '')).join('');
  return { socket, frames, ended, opened, output };
}

describe('browsing a cluster through its agent', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;
  let limited: AttachedCluster;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner, { name: 'main' });
    limited = await attachCluster(t, owner, {
      name: 'limited',
      limitedAgentPermission: true,
      allowedNamespaces: ['ozone'],
    });
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    cluster.api.put(pod('web-1', 'shop'));
    cluster.api.setPodPhase('shop', 'web-1', 'Running');
    cluster.api.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'shop' },
      data: { password: Buffer.from('hunter2-very-secret').toString('base64') },
    });
  });
  afterAll(async () => {
    await cluster.close();
    await limited.close();
    await t.close();
  });

  const get = (url: string, who = owner) => t.app.inject({ method: 'GET', url, headers: who.headers });

  it('lists the kinds the cluster serves, through discovery', async () => {
    const res = await get(`/api/clusters/${cluster.clusterId}/kinds`);
    expect(res.statusCode, res.body).toBe(200);
    const kinds = res.json() as ClusterResourceKind[];
    expect(kinds).toContainEqual(
      expect.objectContaining({ apiVersion: 'apps/v1', kind: 'Deployment', namespaced: true }),
    );
    expect(kinds).toContainEqual(
      expect.objectContaining({ apiVersion: 'v1', kind: 'Node', namespaced: false }),
    );
    expect(kinds.every((k) => k.verbs.includes('list'))).toBe(true);
  });

  it('lists and shows objects of any kind, masking Secret values', async () => {
    const base = `/api/clusters/${cluster.clusterId}`;
    const pods = await get(`${base}/resources?apiVersion=v1&kind=Pod&namespace=shop`);
    expect(pods.statusCode, pods.body).toBe(200);
    expect(pods.json()).toEqual([
      expect.objectContaining({
        name: 'web-1',
        namespace: 'shop',
        status: 'Running',
      } satisfies Partial<ClusterResourceSummary>),
    ]);
    const nodes = (await get(`${base}/resources?apiVersion=v1&kind=Node`)).json() as ClusterResourceSummary[];
    expect(nodes.map((n) => [n.name, n.namespace])).toEqual([['node-1', null]]);

    const one = await get(`${base}/resource?apiVersion=v1&kind=Pod&namespace=shop&name=web-1`);
    expect(one.statusCode, one.body).toBe(200);
    const detail = one.json() as ClusterResourceDetail;
    expect(detail.yaml).toContain('name: web-1');
    expect(detail.yaml).toContain('image: nginx:1.27');
    expect(detail.yaml).not.toContain('managedFields');

    const secret = await get(`${base}/resource?apiVersion=v1&kind=Secret&namespace=shop&name=db`);
    expect(secret.statusCode).toBe(200);
    expect(secret.body).not.toContain(Buffer.from('hunter2-very-secret').toString('base64'));
    expect((secret.json() as ClusterResourceDetail).yaml).toContain('password: ••••••••');

    const missing = await get(`${base}/resource?apiVersion=v1&kind=Pod&namespace=shop&name=nope`);
    expect(missing.statusCode).toBe(404);
    const bad = await get(`${base}/resources?kind=Pod`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ details: [{ path: 'querystring.apiVersion' }] });
  });

  it("keeps a limited agent's cluster to its allowed namespaces", async () => {
    const base = `/api/clusters/${limited.clusterId}`;
    const outside = await get(`${base}/resources?apiVersion=v1&kind=Pod&namespace=default`);
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({
      message: 'namespace: default is not an allowed namespace of this limited agent',
    });
    const everywhere = await get(`${base}/resources?apiVersion=v1&kind=Pod`);
    expect(everywhere.statusCode).toBe(400);
    limited.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ozone' } });
    limited.api.put(pod('inside', 'ozone'));
    const inside = await get(`${base}/resources?apiVersion=v1&kind=Pod&namespace=ozone`);
    expect(inside.statusCode, inside.body).toBe(200);
    expect((inside.json() as ClusterResourceSummary[]).map((p) => p.name)).toEqual(['inside']);
  });

  it('reads and follows pod logs', async () => {
    cluster.api.appendLog('shop', 'web-1', 'app', 'started\nlistening on 8080\n');
    const base = `/api/clusters/${cluster.clusterId}`;
    const follow = openSocket(
      t,
      owner,
      `/api/ws/clusters/${cluster.clusterId}/logs?namespace=shop&pod=web-1`,
    );
    await follow.opened;
    await expect.poll(follow.output).toBe('started\nlistening on 8080\n');
    cluster.api.appendLog('shop', 'web-1', 'app', 'GET / 200\n');
    await expect.poll(follow.output).toContain('GET / 200\n');
    cluster.api.endLog('shop', 'web-1', 'app');
    expect(await follow.ended).toEqual({ type: 'end' });

    const text = await get(`${base}/logs?namespace=shop&pod=web-1`);
    expect(text.statusCode, text.body).toBe(200);
    expect(text.headers['content-type']).toContain('text/plain');
    expect(text.body).toBe('started\nlistening on 8080\nGET / 200\n');

    // The pod log API's sinceSeconds and timestamps reach the API server through the agent.
    const recent = await get(`${base}/logs?namespace=shop&pod=web-1&sinceSeconds=300&timestamps=true`);
    expect(recent.statusCode, recent.body).toBe(200);
    const asked = cluster.api.requests.filter((r) => r.path.endsWith('/pods/web-1/log')).at(-1);
    expect(asked?.query).toMatchObject({ sinceSeconds: '300', timestamps: 'true' });
  });

  it('opens a terminal in a pod, and the session is audited', async () => {
    const term = openSocket(t, owner, `/api/ws/clusters/${cluster.clusterId}/exec?namespace=shop&pod=web-1`);
    await term.opened;
    term.socket.send(JSON.stringify({ type: 'input', data: 'echo hello from the pod\n' }));
    await expect.poll(term.output).toContain('hello from the pod\n');
    term.socket.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    await expect.poll(term.output).toContain('resize 120x40');
    term.socket.send(JSON.stringify({ type: 'input', data: 'exit\n' }));
    expect((await term.ended).type).toBe('end');
    const [row] = await t.db.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'cluster.exec'), eq(auditEvents.targetId, 'shop/web-1')));
    expect(row).toMatchObject({ actorId: owner.userId, workspaceId: owner.workspaceId, targetType: 'pod' });

    // A viewer may look but not open a terminal.
    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    const refused = new WebSocket(
      `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/clusters/${cluster.clusterId}/exec?namespace=shop&pod=web-1`,
      { headers: viewer.headers },
    );
    const status = await new Promise<number>((resolve) =>
      refused.once('unexpected-response', (_q, r) => resolve(r.statusCode!)),
    );
    expect(status).toBe(403);
  });

  it("says 'Agent not active' when the cluster's agent is not connected", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/clusters',
      headers: owner.headers,
      payload: { name: 'never', type: 'other', publicRegistryPrefix: 'docker.io/acme' },
    });
    const { cluster: never } = res.json() as ClusterCreated;
    const kinds = await get(`/api/clusters/${never.id}/kinds`);
    expect(kinds.statusCode).toBe(409);
    expect(kinds.json()).toMatchObject({ message: MESSAGES.agentNotActive });
    const stranger = await createSignedInUser(t.app, t.db.database);
    expect((await get(`/api/clusters/${cluster.clusterId}/kinds`, stranger)).statusCode).toBe(404);
  });
});
