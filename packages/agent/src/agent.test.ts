import type { AddressInfo } from 'node:net';
import { agentMessageSchema, type AgentMessage } from '@slipway/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { Agent, silentLogger } from './agent.js';
import type { KubeClient } from './kube.js';
import { REAL_CLUSTER, startTestCluster, type TestCluster } from './test-cluster.test-helper.js';

// The agent against a bare WebSocket server that speaks the protocol by hand: what the agent
// sends, how it answers bad commands, and how it notices a server that stopped answering. The
// cluster is the test API server, or a real one (test-cluster.test-helper.ts).

let cluster: TestCluster;
let kube: KubeClient;
let wss: WebSocketServer;
let serverUrl: string;
const sockets: WebSocket[] = [];
const received: { socket: WebSocket; message: AgentMessage; auth: string | undefined }[] = [];
let ackHeartbeats = true;
const agents: Agent[] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  kube = cluster.kube;
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/api/agent/connect' });
  await new Promise((resolve) => wss.once('listening', resolve));
  serverUrl = `http://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (socket, request) => {
    sockets.push(socket);
    socket.on('message', (raw) => {
      const message = agentMessageSchema.parse(JSON.parse(raw.toString())) as AgentMessage;
      received.push({ socket, message, auth: request.headers.authorization });
      if (message.type === 'hello') {
        socket.send(JSON.stringify({ type: 'welcome', protocolVersion: 1, clusterId: 'c1', resume: [] }));
      }
      if (message.type === 'heartbeat' && ackHeartbeats) {
        socket.send(JSON.stringify({ type: 'heartbeat_ack', seq: message.seq }));
      }
    });
  });
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  received.length = 0;
  ackHeartbeats = true;
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await new Promise((resolve) => wss.close(resolve));
  await cluster?.close();
});

function start(heartbeatSeconds = 30): Agent {
  const agent = new Agent({
    server: serverUrl,
    token: 'slw_agent_test',
    kube,
    heartbeatSeconds,
    backoff: { initialMs: 50, maxMs: 200 },
    log: silentLogger,
  });
  agents.push(agent);
  agent.start();
  return agent;
}

const welcomed = (agent: Agent) => new Promise<void>((resolve) => agent.once('welcome', () => resolve()));

async function reply(socket: WebSocket, id: string) {
  await expect.poll(() => received.some((r) => r.message.type === 'reply' && r.message.id === id)).toBe(true);
  return received.find((r) => r.message.type === 'reply' && r.message.id === id)!.message;
}

describe('agent protocol', () => {
  it('presents its token and says hello with the cluster facts, then heartbeats', async () => {
    const agent = start(1);
    await welcomed(agent);
    const hello = received.find((r) => r.message.type === 'hello')!;
    expect(hello.auth).toBe('Bearer slw_agent_test');
    expect(hello.message).toMatchObject({
      protocolVersion: 1,
      agentVersion: '0.1.0',
      nodeCount: REAL_CLUSTER ? expect.any(Number) : 1,
      totalVcpu: REAL_CLUSTER ? expect.any(Number) : 4,
      limited: false,
      heartbeatSeconds: 1,
      openStreams: [],
    });
    await expect
      .poll(() => received.filter((r) => r.message.type === 'heartbeat').length)
      .toBeGreaterThanOrEqual(2);
    const seqs = received.flatMap((r) => (r.message.type === 'heartbeat' ? [r.message.seq] : []));
    expect(seqs.slice(0, 2)).toEqual([1, 2]);
  });

  it('answers bad commands with errors that name the problem', async () => {
    const agent = start();
    await welcomed(agent);
    const socket = received.find((r) => r.message.type === 'hello')!.socket;
    const send = (m: object) =>
      socket.send(JSON.stringify({ type: 'command', deadline: Date.now() + 5_000, ...m }));
    send({ id: 'a', kind: 'format-disk', args: {} });
    expect(await reply(socket, 'a')).toMatchObject({
      ok: false,
      error: { code: 'unsupported', message: 'Unknown command "format-disk"' },
    });
    send({ id: 'b', kind: 'get', args: { apiVersion: 'v1', kind: 'Pod' } });
    expect(await reply(socket, 'b')).toMatchObject({
      ok: false,
      error: { code: 'invalid', message: expect.stringMatching(/^args\.name: /) },
    });
    socket.send(
      JSON.stringify({ type: 'command', id: 'c', deadline: Date.now() - 1, kind: 'namespaces', args: {} }),
    );
    expect(await reply(socket, 'c')).toMatchObject({
      ok: false,
      error: { code: 'timeout', message: 'The namespaces command arrived after its deadline' },
    });
    send({ id: 'd', kind: 'namespaces', args: {} });
    expect(await reply(socket, 'd')).toMatchObject({
      ok: true,
      result: { namespaces: expect.arrayContaining(['default', 'kube-system', cluster.namespace]) },
    });
  });

  // The test API server's exec runs a tiny shell that reports resizes.
  it.skipIf(REAL_CLUSTER)(
    'keeps exec input that arrives before the exec session is open, and sends it in order',
    async () => {
      cluster.api!.put({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'shell', namespace: 'default' },
        spec: { containers: [{ name: 'main', image: 'alpine' }] },
      });
      const agent = start();
      await welcomed(agent);
      const socket = received.find((r) => r.message.type === 'hello')!.socket;
      socket.send(
        JSON.stringify({
          type: 'command',
          id: 'x',
          stream: true,
          deadline: Date.now() + 5_000,
          kind: 'exec',
          args: { namespace: 'default', pod: 'shell', command: ['/bin/sh'], tty: true },
        }),
      );
      // at once, before the agent's exec WebSocket to the API server can be open
      socket.send(JSON.stringify({ type: 'stream_input', id: 'x', data: 'echo first\n' }));
      socket.send(JSON.stringify({ type: 'stream_input', id: 'x', resize: { cols: 100, rows: 30 } }));
      socket.send(JSON.stringify({ type: 'stream_input', id: 'x', data: 'echo second\n' }));
      const output = () =>
        received
          .filter((r) => r.message.type === 'frame' && r.message.id === 'x' && r.message.channel === 'stdout')
          .map((r) => (r.message as { data?: unknown }).data)
          .join('');
      // keystrokes in order; the terminal ends at the size asked for (after the client's initial one)
      await expect.poll(output).toMatch(/^first\n(resize \d+x\d+\n)*second\n/);
      const lastSize = () =>
        output()
          .match(/resize \d+x\d+/g)
          ?.at(-1);
      await expect.poll(lastSize).toBe('resize 100x30');
      socket.send(JSON.stringify({ type: 'stream_input', id: 'x', data: 'echo later\n' }));
      await expect.poll(output).toMatch(/\nlater\n$/);
    },
  );

  it.skipIf(REAL_CLUSTER)('keeps a watch stream going when the API server drops it', async () => {
    const api = cluster.api!;
    const agent = start();
    await welcomed(agent);
    const socket = received.find((r) => r.message.type === 'hello')!.socket;
    socket.send(
      JSON.stringify({
        type: 'command',
        id: 'w',
        stream: true,
        deadline: Date.now() + 5_000,
        kind: 'watch',
        args: { apiVersion: 'v1', kind: 'ConfigMap', namespace: cluster.namespace },
      }),
    );
    type WatchFrame = { type: string; object: { metadata: { name: string } } };
    const frames = () =>
      received.flatMap(({ message: m }) => {
        if (m.type !== 'frame' || m.id !== 'w') return [];
        if (m.end) return ['end'];
        const event = m.data as WatchFrame;
        return [`${event.type} ${event.object.metadata.name}`];
      });
    const configMap = (name: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: cluster.namespace },
    });
    await expect.poll(() => api.watchers()).toBe(1);
    api.put(configMap('before'));
    await expect.poll(frames).toEqual(['ADDED before']);
    api.dropStreams();
    api.put(configMap('after'));
    await expect.poll(frames).toEqual(['ADDED before', 'ADDED after']);
    await expect.poll(() => api.watchers()).toBe(1);
  });

  it('reconnects when the server stops answering heartbeats', async () => {
    ackHeartbeats = false;
    const agent = start(1);
    await welcomed(agent);
    const again = welcomed(agent);
    await again;
    expect(agent.connections).toBe(2);
    expect(received.filter((r) => r.message.type === 'hello')).toHaveLength(2);
  });
});
