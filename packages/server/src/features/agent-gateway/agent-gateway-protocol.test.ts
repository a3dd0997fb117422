import { AGENT_CLOSE_CODES, AGENT_CONNECT_PATH, AGENT_NOT_ACTIVE_MESSAGE } from '@slipway/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../../platform/database/schema.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { AgentCommandError } from './agent-gateway.js';
import { AGENT_TOKEN_REFUSED } from './agent-gateway-routes.js';
import { insertCluster, ProtocolPeer, sampleHello } from './protocol-peer.test-helper.js';

let t: TestApp;
let user: TestUser;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = address.replace(/^http/, 'ws') + AGENT_CONNECT_PATH;
  user = await createSignedInUser(t.app, t.db.database);
});
afterAll(async () => {
  await t?.close();
});

const row = async (id: string) =>
  (await t.db.database.db.select().from(clusters).where(eq(clusters.id, id)))[0]!;

async function connected(options: Parameters<typeof insertCluster>[2] = {}) {
  const cluster = await insertCluster(t.db.database.db, user.workspaceId, options);
  const peer = await ProtocolPeer.connect(url, cluster.token);
  peer.send(sampleHello());
  const welcome = await peer.next('welcome');
  return { cluster, peer, welcome };
}

describe('agent gateway (protocol peers)', () => {
  it('refuses a missing, unknown or revoked token before the upgrade', async () => {
    await expect(ProtocolPeer.connect(url, '')).rejects.toMatchObject({ status: 401 });
    const unknown = await ProtocolPeer.connect(url, 'slw_agent_nope').catch((e: unknown) => e);
    expect(unknown).toMatchObject({ status: 401 });
    expect(JSON.parse((unknown as { body: string }).body).message).toBe(AGENT_TOKEN_REFUSED);

    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    await t.db.database.db
      .update(clusters)
      .set({ tokenRevokedAt: new Date() })
      .where(eq(clusters.id, cluster.id));
    await expect(ProtocolPeer.connect(url, cluster.token)).rejects.toMatchObject({ status: 401 });
  });

  it('records the hello on the cluster row and welcomes the agent', async () => {
    const { cluster, peer, welcome } = await connected();
    expect(welcome).toMatchObject({ clusterId: cluster.id, protocolVersion: 1, resume: [] });
    const r = await row(cluster.id);
    expect(r).toMatchObject({
      status: 'active',
      statusMessage: null,
      agentVersion: '0.1.0',
      kubernetesVersion: 'v1.31.2',
      nodeCount: 2,
      totalVcpu: 8,
      namespaces: ['default', 'ozone'],
      installedResources: [1],
      storageOptions: [expect.objectContaining({ name: 'standard', reclaimPolicy: 'Delete', default: true })],
    });
    expect(r.connectedAt).toBeInstanceOf(Date);
    expect(t.app.agentGateway.isConnected(cluster.id)).toBe(true);
    peer.close();
    await peer.closed;
    await expect.poll(() => t.app.agentGateway.isConnected(cluster.id)).toBe(false);
  });

  it('closes a connection whose first message is not a valid hello, naming the field', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const peer = await ProtocolPeer.connect(url, cluster.token);
    peer.send({ ...sampleHello(), nodeCount: 'three' });
    const closed = await peer.closed;
    expect(closed.code).toBe(AGENT_CLOSE_CODES.badMessage);
    expect(closed.reason).toContain('nodeCount');

    const other = await ProtocolPeer.connect(url, cluster.token);
    other.send(sampleHello({ protocolVersion: 99 }));
    expect(await other.closed).toMatchObject({ code: AGENT_CLOSE_CODES.protocolMismatch });
    expect((await row(cluster.id)).status).toBe('attaching');
  });

  it('acknowledges heartbeats and writes them in batches; a not-active cluster comes back', async () => {
    const { cluster, peer } = await connected();
    const old = new Date(Date.now() - 3_600_000);
    await t.db.database.db
      .update(clusters)
      .set({ lastHeartbeatAt: old, status: 'not_active', statusMessage: 'missed heartbeats' })
      .where(eq(clusters.id, cluster.id));
    peer.send({ type: 'heartbeat', seq: 7, at: new Date().toISOString() });
    expect(await peer.next('heartbeat_ack')).toEqual({ type: 'heartbeat_ack', seq: 7 });
    await t.app.agentGateway.flush();
    const r = await row(cluster.id);
    expect(r.lastHeartbeatAt!.getTime()).toBeGreaterThan(old.getTime());
    expect(r).toMatchObject({ status: 'active', statusMessage: null });
    peer.close();
  });

  it('round-trips requests, passes agent errors on, and times out with a clear error', async () => {
    const { cluster, peer } = await connected();
    const gateway = t.app.agentGateway;
    const pending = gateway.request(cluster.id, { kind: 'namespaces', args: {} });
    const command = await peer.next('command');
    expect(command).toMatchObject({ kind: 'namespaces', stream: false });
    expect(command.deadline).toBeGreaterThan(Date.now());
    peer.send({ type: 'reply', id: command.id, ok: true, result: { namespaces: ['a', 'b'] } });
    await expect(pending).resolves.toEqual({ namespaces: ['a', 'b'] });

    const refused = gateway.request(cluster.id, {
      kind: 'get',
      args: { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'kube-system' },
    });
    const second = await peer.next('command');
    peer.send({
      type: 'reply',
      id: second.id,
      ok: false,
      error: { code: 'forbidden_namespace', message: 'Namespace kube-system is not allowed' },
    });
    await expect(refused).rejects.toMatchObject({
      code: 'forbidden_namespace',
      message: 'Namespace kube-system is not allowed',
    });

    const slow = gateway.request(cluster.id, { kind: 'namespaces', args: {} }, { timeoutMs: 200 });
    const third = await peer.next('command');
    await expect(slow).rejects.toThrow('The agent did not answer the namespaces command within 0.2 s');
    expect(await peer.next('cancel')).toEqual({ type: 'cancel', id: third.id });
    peer.close();
  });

  it("rejects with 'Agent not active' when the cluster has no agent, and fails pending requests on a drop", async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    await expect(t.app.agentGateway.request(cluster.id, { kind: 'namespaces', args: {} })).rejects.toThrow(
      AGENT_NOT_ACTIVE_MESSAGE,
    );
    const { cluster: c2, peer } = await connected();
    const pending = t.app.agentGateway.request(c2.id, { kind: 'namespaces', args: {} });
    await peer.next('command');
    peer.socket.terminate();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentCommandError);
    expect(error).toMatchObject({ code: 'not_connected', message: AGENT_NOT_ACTIVE_MESSAGE });
  });

  it('streams frames in order and resumes them after a reconnect', async () => {
    const { cluster, peer } = await connected();
    const frames: unknown[] = [];
    const handle = await t.app.agentGateway.stream(
      cluster.id,
      { kind: 'logs', args: { namespace: 'ozone', pod: 'web', follow: true } },
      (f) => frames.push(f.data),
    );
    const command = await peer.next('command');
    expect(command).toMatchObject({ kind: 'logs', stream: true, args: { pod: 'web', follow: true } });
    peer.send({ type: 'frame', id: command.id, seq: 1, data: 'line 1\n' });
    peer.send({ type: 'frame', id: command.id, seq: 2, data: 'line 2\n' });
    await expect.poll(() => frames.length).toBe(2);
    peer.socket.terminate();
    await expect.poll(() => t.app.agentGateway.isConnected(cluster.id)).toBe(false);

    const again = await ProtocolPeer.connect(url, cluster.token);
    again.send(sampleHello({ openStreams: [command.id] }));
    const welcome = await again.next('welcome');
    expect(welcome.resume).toEqual([{ id: command.id, afterSeq: 2 }]);
    // The agent sends again what it is not sure arrived; duplicates are dropped.
    again.send({ type: 'frame', id: command.id, seq: 2, data: 'line 2\n' });
    again.send({ type: 'frame', id: command.id, seq: 3, data: 'line 3\n', end: true });
    await handle.done;
    expect(frames).toEqual(['line 1\n', 'line 2\n', 'line 3\n']);
    again.close();
  });

  it('fails streams the agent lost across a reconnect, and cancels on close', async () => {
    const { cluster, peer } = await connected();
    const lost = await t.app.agentGateway.stream(
      cluster.id,
      { kind: 'logs', args: { namespace: 'ozone', pod: 'web' } },
      () => undefined,
    );
    await peer.next('command');
    peer.socket.terminate();
    await expect.poll(() => t.app.agentGateway.isConnected(cluster.id)).toBe(false);
    const again = await ProtocolPeer.connect(url, cluster.token);
    again.send(sampleHello());
    await again.next('welcome');
    await expect(lost.done).rejects.toThrow('The stream was lost when the agent reconnected');

    const watched = await t.app.agentGateway.stream(
      cluster.id,
      { kind: 'watch', args: { apiVersion: 'v1', kind: 'Pod', namespace: 'ozone' } },
      () => undefined,
    );
    const command = await again.next('command');
    watched.close();
    expect(await again.next('cancel')).toEqual({ type: 'cancel', id: command.id });
    await watched.done;
    again.close();
  });

  it('disconnects an agent on purpose, and drops one whose token was revoked at the next flush', async () => {
    const { cluster, peer } = await connected();
    t.app.agentGateway.disconnect(cluster.id, 'The cluster was detached');
    expect(await peer.closed).toEqual({
      code: AGENT_CLOSE_CODES.disconnected,
      reason: 'The cluster was detached',
    });
    expect(t.app.agentGateway.isConnected(cluster.id)).toBe(false);

    const second = await connected();
    await t.db.database.db
      .update(clusters)
      .set({ tokenRevokedAt: new Date() })
      .where(eq(clusters.id, second.cluster.id));
    second.peer.send({ type: 'heartbeat', seq: 1, at: new Date().toISOString() });
    await second.peer.next('heartbeat_ack');
    await t.app.agentGateway.flush();
    expect(await second.peer.closed).toMatchObject({ code: AGENT_CLOSE_CODES.disconnected });
    await expect(ProtocolPeer.connect(url, second.cluster.token)).rejects.toMatchObject({ status: 401 });
  });

  it('replaces an older connection of the same cluster by the newer one', async () => {
    const { cluster, peer } = await connected();
    const newer = await ProtocolPeer.connect(url, cluster.token);
    newer.send(sampleHello());
    await newer.next('welcome');
    expect(await peer.closed).toMatchObject({
      code: AGENT_CLOSE_CODES.disconnected,
      reason: 'Replaced by a newer connection',
    });
    expect(t.app.agentGateway.isConnected(cluster.id)).toBe(true);
    const pending = t.app.agentGateway.request(cluster.id, { kind: 'namespaces', args: {} });
    const command = await newer.next('command');
    newer.send({ type: 'reply', id: command.id, ok: true, result: { namespaces: [] } });
    await expect(pending).resolves.toEqual({ namespaces: [] });
    newer.close();
  });
});
