import { randomUUID } from 'node:crypto';
import {
  AGENT_CLOSE_CODES,
  AGENT_NOT_ACTIVE_MESSAGE,
  AGENT_PROTOCOL_VERSION,
  agentMessageSchema,
  type AgentCommand,
  type AgentErrorCode,
  type AgentHello,
  type AgentResults,
  type AgentStreamCommand,
  type AgentStreamFrame,
  type ServerMessage,
} from '@slipway/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { AgentCommandError, type AgentGateway, type AgentStreamHandle } from './agent-gateway.js';
import type { AgentCluster, AgentGatewayStore } from './agent-gateway-store.js';

export interface GatewayOptions {
  /** how long a request waits for its reply by default */
  defaultTimeoutMs?: number;
  /** how long streams wait for their agent to come back after a dropped connection */
  streamResumeGraceMs?: number;
  /** how often heartbeats are written to the database */
  flushEveryMs?: number;
  /** heartbeats written per statement */
  flushChunk?: number;
  /** how long a new connection has to say hello */
  helloTimeoutMs?: number;
}

interface Pending {
  clusterId: string;
  kind: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

interface OpenStream {
  id: string;
  clusterId: string;
  lastSeq: number;
  onFrame(frame: AgentStreamFrame): void;
  finish(error?: Error): void;
  graceTimer: NodeJS.Timeout | null;
}

interface Connection {
  cluster: AgentCluster;
  socket: WebSocket;
  hello: AgentHello;
}

/** The gateway over the agents' WebSocket connections (route in agent-gateway-routes.ts). */
export class WsAgentGateway implements AgentGateway {
  private readonly connections = new Map<string, Connection>();
  private readonly pending = new Map<string, Pending>();
  private readonly streams = new Map<string, OpenStream>();
  private beats = new Map<string, { clusterId: string; tokenHash: string; at: Date }>();
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly defaultTimeoutMs: number;
  private readonly streamResumeGraceMs: number;
  private readonly flushEveryMs: number;
  private readonly flushChunk: number;
  readonly helloTimeoutMs: number;

  constructor(
    private readonly store: AgentGatewayStore,
    private readonly log: FastifyBaseLogger,
    options: GatewayOptions = {},
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.streamResumeGraceMs = options.streamResumeGraceMs ?? 60_000;
    this.flushEveryMs = options.flushEveryMs ?? 1_000;
    this.flushChunk = options.flushChunk ?? 100;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 10_000;
  }

  isConnected(clusterId: string): boolean {
    return this.connections.has(clusterId);
  }

  /** How many agents are connected (for health and the bench). */
  get connectedCount(): number {
    return this.connections.size;
  }

  request<K extends AgentCommand['kind']>(
    clusterId: string,
    command: Extract<AgentCommand, { kind: K }>,
    options: { timeoutMs?: number } = {},
  ): Promise<AgentResults[K]> {
    const connection = this.connections.get(clusterId);
    if (!connection) return Promise.reject(notActive());
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const id = randomUUID();
    return new Promise<AgentResults[K]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.send(connection.socket, { type: 'cancel', id });
        reject(
          new AgentCommandError(
            'timeout',
            `The agent did not answer the ${command.kind} command within ${Math.round(timeoutMs / 100) / 10} s`,
          ),
        );
      }, timeoutMs);
      this.pending.set(id, {
        clusterId,
        kind: command.kind,
        resolve: resolve as (r: unknown) => void,
        reject,
        timer,
      });
      this.send(connection.socket, {
        type: 'command',
        id,
        deadline: Date.now() + timeoutMs,
        kind: command.kind,
        args: command.args ?? {},
      });
    });
  }

  async stream(
    clusterId: string,
    command: AgentStreamCommand,
    onFrame: (frame: AgentStreamFrame) => void,
  ): Promise<AgentStreamHandle> {
    const connection = this.connections.get(clusterId);
    if (!connection) throw notActive();
    const id = randomUUID();
    let settle!: (error?: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    // A caller that only closes the stream need not await `done`.
    done.catch(() => undefined);
    const open: OpenStream = {
      id,
      clusterId,
      lastSeq: 0,
      onFrame,
      graceTimer: null,
      finish: (error) => {
        if (!this.streams.delete(id)) return;
        if (open.graceTimer) clearTimeout(open.graceTimer);
        settle(error);
      },
    };
    this.streams.set(id, open);
    this.send(connection.socket, {
      type: 'command',
      id,
      stream: true,
      deadline: Date.now() + this.defaultTimeoutMs,
      kind: command.kind,
      args: command.args,
    });
    return {
      done,
      close: () => {
        if (!this.streams.has(id)) return;
        const current = this.connections.get(clusterId);
        if (current) this.send(current.socket, { type: 'cancel', id });
        open.finish();
      },
      input: (data) => {
        const current = this.connections.get(clusterId);
        if (current && this.streams.has(id)) this.send(current.socket, { type: 'stream_input', id, ...data });
      },
    };
  }

  disconnect(clusterId: string, reason: string): void {
    const connection = this.connections.get(clusterId);
    if (!connection) return;
    this.dropConnection(connection, notActive());
    for (const stream of [...this.streams.values()]) {
      if (stream.clusterId === clusterId) stream.finish(notActive());
    }
    connection.socket.close(AGENT_CLOSE_CODES.disconnected, truncateReason(reason));
  }

  /**
   * Takes over a socket whose token was checked: waits for the hello, records it, then serves
   * the connection. Called by the route.
   */
  accept(socket: WebSocket, cluster: AgentCluster): void {
    let connection: Connection | null = null;
    const helloTimer = setTimeout(() => {
      socket.close(AGENT_CLOSE_CODES.badMessage, 'No hello received');
    }, this.helloTimeoutMs);
    let queue: Promise<void> = Promise.resolve();

    socket.on('message', (raw, isBinary) => {
      if (isBinary) {
        socket.close(AGENT_CLOSE_CODES.badMessage, 'Messages must be JSON text');
        return;
      }
      let message;
      try {
        message = agentMessageSchema.safeParse(JSON.parse(raw.toString()));
      } catch {
        socket.close(AGENT_CLOSE_CODES.badMessage, 'Messages must be JSON text');
        return;
      }
      if (!message.success) {
        const issue = message.error.issues[0];
        socket.close(
          AGENT_CLOSE_CODES.badMessage,
          truncateReason(`Malformed message: ${issue?.path.join('.') || 'message'}: ${issue?.message ?? ''}`),
        );
        return;
      }
      const msg = message.data;
      if (!connection) {
        if (msg.type !== 'hello') {
          socket.close(AGENT_CLOSE_CODES.badMessage, 'The first message must be a hello');
          return;
        }
        clearTimeout(helloTimer);
        if (msg.protocolVersion !== AGENT_PROTOCOL_VERSION) {
          socket.close(
            AGENT_CLOSE_CODES.protocolMismatch,
            `Protocol version ${msg.protocolVersion} is not supported; the server speaks ${AGENT_PROTOCOL_VERSION}`,
          );
          return;
        }
        const accepted: Connection = { cluster, socket, hello: msg };
        connection = accepted;
        // Messages that arrive while the hello is written wait for it.
        queue = this.onHello(accepted).catch((error: unknown) => {
          this.log.error({ err: error, clusterId: cluster.id }, 'agent hello failed');
          socket.close(1011, 'The server could not record the hello');
        });
        return;
      }
      const current = connection;
      queue = queue.then(() => this.onMessage(current, msg));
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      if (connection && this.connections.get(cluster.id) === connection) {
        this.dropConnection(connection, notActive());
      }
    });
    socket.on('error', (error) => this.log.warn({ err: error, clusterId: cluster.id }, 'agent socket error'));
  }

  private async onHello(connection: Connection): Promise<void> {
    const { cluster, hello, socket } = connection;
    await this.store.recordHello(cluster.id, hello, new Date());
    if (socket.readyState !== socket.OPEN) return;
    const previous = this.connections.get(cluster.id);
    if (previous && previous !== connection) {
      this.connections.delete(cluster.id);
      previous.socket.close(AGENT_CLOSE_CODES.disconnected, 'Replaced by a newer connection');
      this.failPending(cluster.id, notActive());
    }
    this.connections.set(cluster.id, connection);
    this.ensureFlushTimer();
    const resume: { id: string; afterSeq: number }[] = [];
    for (const stream of this.streams.values()) {
      if (stream.clusterId !== cluster.id) continue;
      if (hello.openStreams.includes(stream.id)) {
        if (stream.graceTimer) clearTimeout(stream.graceTimer);
        stream.graceTimer = null;
        resume.push({ id: stream.id, afterSeq: stream.lastSeq });
      } else if (stream.graceTimer) {
        stream.finish(
          new AgentCommandError('not_connected', 'The stream was lost when the agent reconnected'),
        );
      }
    }
    this.send(socket, {
      type: 'welcome',
      protocolVersion: AGENT_PROTOCOL_VERSION,
      clusterId: cluster.id,
      resume,
    });
    this.log.info({ clusterId: cluster.id, agentVersion: hello.agentVersion }, 'agent connected');
  }

  private onMessage(connection: Connection, msg: ReturnType<typeof agentMessageSchema.parse>): void {
    const { socket, cluster } = connection;
    switch (msg.type) {
      case 'heartbeat':
        this.beats.set(cluster.id, { clusterId: cluster.id, tokenHash: cluster.tokenHash, at: new Date() });
        this.send(socket, { type: 'heartbeat_ack', seq: msg.seq });
        return;
      case 'reply': {
        const pending = this.pending.get(msg.id);
        if (!pending || pending.clusterId !== cluster.id) return; // late reply after a timeout
        this.pending.delete(msg.id);
        clearTimeout(pending.timer);
        if (msg.ok) pending.resolve(msg.result);
        else
          pending.reject(
            new AgentCommandError(
              msg.error?.code ?? 'internal',
              msg.error?.message ?? `The ${pending.kind} command failed`,
            ),
          );
        return;
      }
      case 'frame': {
        const stream = this.streams.get(msg.id);
        if (!stream || stream.clusterId !== cluster.id) {
          if (!msg.end) this.send(socket, { type: 'cancel', id: msg.id });
          return;
        }
        if (msg.seq <= stream.lastSeq) return; // sent again after a resume
        stream.lastSeq = msg.seq;
        try {
          stream.onFrame(msg);
        } catch (error) {
          this.log.warn({ err: error }, 'stream frame handler failed');
        }
        if (msg.end) {
          stream.finish(msg.error ? new AgentCommandError(msg.error.code, msg.error.message) : undefined);
        }
        return;
      }
      case 'hello':
        socket.close(AGENT_CLOSE_CODES.badMessage, 'Hello was already received');
        return;
    }
  }

  /** Forget a connection: its requests fail now, its streams wait a while for the agent to return. */
  private dropConnection(connection: Connection, error: Error): void {
    const clusterId = connection.cluster.id;
    if (this.connections.get(clusterId) !== connection) return;
    this.connections.delete(clusterId);
    this.failPending(clusterId, error);
    for (const stream of this.streams.values()) {
      if (stream.clusterId !== clusterId || stream.graceTimer) continue;
      stream.graceTimer = setTimeout(() => stream.finish(notActive()), this.streamResumeGraceMs);
      stream.graceTimer.unref();
    }
    this.log.info({ clusterId }, 'agent disconnected');
  }

  private failPending(clusterId: string, error: Error): void {
    for (const [id, pending] of this.pending) {
      if (pending.clusterId !== clusterId) continue;
      this.pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  private ensureFlushTimer(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setInterval(() => void this.flush(), this.flushEveryMs);
    this.flushTimer.unref();
  }

  /**
   * Writes the heartbeats received since the last flush, a few hundred per statement. Between
   * statements the event loop gets a turn: the embedded database runs on this thread, and acks
   * must not wait behind one long write.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.beats.size === 0) return;
      const batch = [...this.beats.values()];
      this.beats = new Map();
      for (let i = 0; i < batch.length; i += this.flushChunk) {
        const chunk = batch.slice(i, i + this.flushChunk);
        if (i > 0) await new Promise((resolve) => setImmediate(resolve));
        try {
          const live = await this.store.recordHeartbeats(chunk);
          for (const beat of chunk) {
            if (!live.has(beat.clusterId)) this.disconnect(beat.clusterId, 'The cluster token was revoked');
          }
        } catch (error) {
          this.log.error({ err: error }, 'writing agent heartbeats failed');
        }
      }
    });
    return this.flushing;
  }

  /** Stops the flush timer, writes what is left and closes every agent connection. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushTimer = null;
    await this.flush();
    for (const connection of [...this.connections.values()]) {
      this.dropConnection(connection, notActive());
      connection.socket.close(1001, 'The server is shutting down');
    }
    for (const stream of [...this.streams.values()]) stream.finish(notActive());
  }

  private send(socket: WebSocket, message: ServerMessage): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }
}

function notActive(): AgentCommandError {
  return new AgentCommandError('not_connected' satisfies AgentErrorCode, AGENT_NOT_ACTIVE_MESSAGE);
}

/** Close reasons are limited to 123 bytes. */
function truncateReason(reason: string): string {
  const bytes = Buffer.from(reason);
  return bytes.length <= 123 ? reason : bytes.subarray(0, 120).toString() + '…';
}
