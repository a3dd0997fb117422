import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, KubeClient, loadKubeConfig, silentLogger } from '@slipway/agent';
import { KubeApiServer } from '@slipway/agent/test-kube-api-server';
import { AGENT_NOT_ACTIVE_MESSAGE, type AgentStreamFrame } from '@slipway/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../../platform/database/schema.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { AGENT_TOKEN_REFUSED } from './agent-gateway-routes.js';
import { insertCluster } from './protocol-peer.test-helper.js';

// The real agent, with the official Kubernetes client, against the test API server, connected
// to a real server over a real WebSocket.

let t: TestApp;
let user: TestUser;
let serverUrl: string;
let api: KubeApiServer;
let dir: string;
let kubeconfig: string;
const agents: Agent[] = [];

beforeAll(async () => {
  api = await KubeApiServer.start({
    gitVersion: 'v1.31.2',
    nodes: [
      { name: 'n1', cpu: '4' },
      { name: 'n2', cpu: '4' },
    ],
    kinds: [
      { group: 'tekton.dev', version: 'v1', kind: 'PipelineRun', plural: 'pipelineruns', namespaced: true },
    ],
  });
  api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ozone' } });
  dir = mkdtempSync(path.join(tmpdir(), 'gateway-agent-'));
  kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, api.kubeconfig());
  t = await createTestApp();
  serverUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  user = await createSignedInUser(t.app, t.db.database);
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});
afterAll(async () => {
  await t?.close();
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

function startAgent(token: string, options: { limited?: boolean; allowedNamespaces?: string[] } = {}): Agent {
  const agent = new Agent({
    server: serverUrl,
    token,
    kube: new KubeClient(loadKubeConfig({ kubeconfig })),
    heartbeatSeconds: 1,
    backoff: { initialMs: 50, maxMs: 400 },
    log: silentLogger,
    ...options,
  });
  agents.push(agent);
  agent.start();
  return agent;
}

const welcomed = (agent: Agent) => new Promise<void>((resolve) => agent.once('welcome', () => resolve()));
const row = async (id: string) =>
  (await t.db.database.db.select().from(clusters).where(eq(clusters.id, id)))[0]!;

describe('agent gateway with the real agent', () => {
  it('records the hello and then the heartbeats on the cluster row', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const agent = startAgent(cluster.token);
    await welcomed(agent);
    const first = await row(cluster.id);
    expect(first).toMatchObject({
      status: 'active',
      statusMessage: null,
      agentVersion: '0.1.0',
      kubernetesVersion: 'v1.31.2',
      nodeCount: 2,
      totalVcpu: 8,
      namespaces: ['default', 'kube-public', 'kube-system', 'ozone'],
      installedResources: [1],
      storageOptions: [],
    });
    const connectedAt = first.lastHeartbeatAt!.getTime();
    await expect
      .poll(async () => (await row(cluster.id)).lastHeartbeatAt!.getTime(), { timeout: 5_000 })
      .toBeGreaterThan(connectedAt);
  });

  it('round-trips apply, list, get and health through the agent', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const agent = startAgent(cluster.token);
    await welcomed(agent);
    const gateway = t.app.agentGateway;
    const applied = await gateway.request(cluster.id, {
      kind: 'apply',
      args: {
        namespace: 'ozone',
        manifests: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'shop', labels: { app: 'shop' } },
            spec: {
              replicas: 1,
              selector: { matchLabels: { app: 'shop' } },
              template: {
                metadata: { labels: { app: 'shop' } },
                spec: { containers: [{ name: 'shop', image: 'registry.local/shop:1.0.0' }] },
              },
            },
          },
        ],
      },
    });
    expect(applied.applied).toEqual([
      expect.objectContaining({ kind: 'Deployment', name: 'shop', namespace: 'ozone' }),
    ]);
    const listed = await gateway.request(cluster.id, {
      kind: 'list',
      args: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ozone', labelSelector: 'app=shop' },
    });
    expect(listed.items.map((i) => i.metadata.name)).toEqual(['shop']);
    const got = await gateway.request(cluster.id, {
      kind: 'get',
      args: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop', namespace: 'ozone' },
    });
    expect(got.object).toMatchObject({
      spec: { template: { spec: { containers: [{ image: 'registry.local/shop:1.0.0' }] } } },
    });
    const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop', namespace: 'ozone' };
    expect((await gateway.request(cluster.id, { kind: 'health', args: { resources: [ref] } })).status).toBe(
      'progressing',
    );
    api.setStatus('apps/v1', 'Deployment', 'ozone', 'shop', {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
    });
    expect((await gateway.request(cluster.id, { kind: 'health', args: { resources: [ref] } })).status).toBe(
      'healthy',
    );
    await expect(
      gateway.request(cluster.id, {
        kind: 'get',
        args: { apiVersion: 'v1', kind: 'Pod', name: 'nope', namespace: 'ozone' },
      }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'Pod "nope" not found in namespace ozone' });
  });

  it('streams pod logs, and resumes the stream after the connection drops', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const agent = startAgent(cluster.token);
    await welcomed(agent);
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'build-1', namespace: 'ozone' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'step-build', image: 'alpine' }] },
    });
    api.setPodPhase('ozone', 'build-1', 'Running');
    api.appendLog('ozone', 'build-1', 'step-build', 'line 1\n');
    const frames: AgentStreamFrame[] = [];
    const handle = await t.app.agentGateway.stream(
      cluster.id,
      { kind: 'logs', args: { namespace: 'ozone', pod: 'build-1', container: 'step-build', follow: true } },
      (frame) => frames.push(frame),
    );
    await expect.poll(() => frames.map((f) => f.data).join('')).toBe('line 1\n');

    // The network drops; the pod keeps logging; the agent comes back and sends what was missed.
    // (Not polling for the gap: on a busy machine the agent may be back before a poll looks.)
    const back = welcomed(agent);
    agent.dropConnection();
    api.appendLog('ozone', 'build-1', 'step-build', 'line 2\n');
    await back;
    expect(agent.connections).toBe(2);
    api.appendLog('ozone', 'build-1', 'step-build', 'line 3\n');
    api.setPodPhase('ozone', 'build-1', 'Succeeded');
    await handle.done;
    expect(frames.map((f) => f.data ?? '').join('')).toBe('line 1\nline 2\nline 3\n');
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i + 1));
    expect(frames.at(-1)).toMatchObject({ end: true });
  });

  it('watches pods through the agent and sees their phases change', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const agent = startAgent(cluster.token);
    await welcomed(agent);
    const seen: string[] = [];
    const watch = await t.app.agentGateway.stream(
      cluster.id,
      {
        kind: 'watch',
        args: { apiVersion: 'v1', kind: 'Pod', namespace: 'ozone', labelSelector: 'run=r-42' },
      },
      (frame) => {
        const event = frame.data as {
          type: string;
          object: { metadata: { name: string }; status?: { phase?: string } };
        };
        if (event)
          seen.push(`${event.type} ${event.object.metadata.name} ${event.object.status?.phase ?? '-'}`);
      },
    );
    await expect.poll(() => api.watchers()).toBe(1);
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'r-42-task', namespace: 'ozone', labels: { run: 'r-42' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'step-a', image: 'alpine' }] },
    });
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'other', namespace: 'ozone' },
      spec: { containers: [] },
    });
    api.setPodPhase('ozone', 'r-42-task', 'Succeeded', {
      terminationMessages: { 'step-a': '[{"key":"digest","value":"sha256:9"}]' },
    });
    await expect.poll(() => seen).toEqual(['ADDED r-42-task -', 'MODIFIED r-42-task Succeeded']);
    watch.close();
    await watch.done;
  });

  it('runs an exec terminal through the gateway', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const agent = startAgent(cluster.token);
    await welcomed(agent);
    api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'ozone' },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    });
    let output = '';
    let last: AgentStreamFrame | null = null;
    const session = await t.app.agentGateway.stream(
      cluster.id,
      { kind: 'exec', args: { namespace: 'ozone', pod: 'web-1', command: ['/bin/sh'], tty: true } },
      (frame) => {
        if (frame.channel === 'stdout' && typeof frame.data === 'string') output += frame.data;
        last = frame;
      },
    );
    // The session opens on the agent asynchronously: keep typing until it answers.
    await expect
      .poll(
        () => {
          session.input({ data: 'echo ready\n' });
          return output;
        },
        { interval: 100 },
      )
      .toContain('ready\n');
    session.input({ resize: { cols: 100, rows: 30 } });
    await expect.poll(() => output).toContain('resize 100x30');
    session.input({ data: 'exit 0\n' });
    await session.done;
    expect(last).toMatchObject({ end: true, channel: 'status', data: { exitCode: 0 } });
  });

  it('reconnects after the server drops it, and is refused once its token is revoked', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const agent = startAgent(cluster.token);
    await welcomed(agent);
    const again = welcomed(agent);
    t.app.agentGateway.disconnect(cluster.id, 'Maintenance');
    await again;
    expect(t.app.agentGateway.isConnected(cluster.id)).toBe(true);

    const refused = new Promise<[number, string]>((resolve) =>
      agent.once('refused', (status: number, message: string) => resolve([status, message])),
    );
    await t.db.database.db
      .update(clusters)
      .set({ tokenRevokedAt: new Date() })
      .where(eq(clusters.id, cluster.id));
    t.app.agentGateway.disconnect(cluster.id, 'The cluster was detached');
    expect(await refused).toEqual([401, AGENT_TOKEN_REFUSED]);
    expect(t.app.agentGateway.isConnected(cluster.id)).toBe(false);
    await expect(t.app.agentGateway.request(cluster.id, { kind: 'namespaces', args: {} })).rejects.toThrow(
      AGENT_NOT_ACTIVE_MESSAGE,
    );
  });

  it('keeps a limited agent inside its allowed namespaces', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId, { limited: true });
    const agent = startAgent(cluster.token, { limited: true, allowedNamespaces: ['ozone'] });
    await welcomed(agent);
    expect((await row(cluster.id)).namespaces).toEqual(['ozone']);
    await expect(
      t.app.agentGateway.request(cluster.id, {
        kind: 'list',
        args: { apiVersion: 'v1', kind: 'Secret', namespace: 'kube-system' },
      }),
    ).rejects.toMatchObject({
      code: 'forbidden_namespace',
      message:
        'Namespace "kube-system" is not allowed: this limited agent works only in the namespaces ozone',
    });
    const logs = await t.app.agentGateway.stream(
      cluster.id,
      { kind: 'logs', args: { namespace: 'kube-system', pod: 'coredns' } },
      () => undefined,
    );
    await expect(logs.done).rejects.toMatchObject({ code: 'forbidden_namespace' });
    expect(await t.app.agentGateway.request(cluster.id, { kind: 'namespaces', args: {} })).toEqual({
      namespaces: ['ozone'],
    });
  });

  it('attaches through the command line: npm run agent -- --kubeconfig … --server … --token …', async () => {
    const cluster = await insertCluster(t.db.database.db, user.workspaceId);
    const main = fileURLToPath(new URL('../../../../agent/src/main.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        main,
        '--kubeconfig',
        kubeconfig,
        '--server',
        serverUrl,
        '--heartbeat-seconds',
        '1',
      ],
      { env: { ...process.env, SLIPWAY_AGENT_TOKEN: cluster.token }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await expect.poll(() => t.app.agentGateway.isConnected(cluster.id), { timeout: 20_000 }).toBe(true);
      expect((await row(cluster.id)).status).toBe('active');
      expect(await t.app.agentGateway.request(cluster.id, { kind: 'namespaces', args: {} })).toEqual({
        namespaces: ['default', 'kube-public', 'kube-system', 'ozone'],
      });
      expect(log).toContain('"message":"connected to the server"');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    await expect.poll(() => t.app.agentGateway.isConnected(cluster.id)).toBe(false);
  });
});
