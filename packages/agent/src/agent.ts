import { EventEmitter } from 'node:events';
import {
  AGENT_CONNECT_PATH,
  AGENT_DEFAULT_ALLOWED_NAMESPACES,
  AGENT_DEFAULT_HEARTBEAT_SECONDS,
  AGENT_PROTOCOL_VERSION,
  serverMessageSchema,
  type AgentError as AgentErrorBody,
  type AgentHello,
  type AgentMessage,
  type AgentStreamCommandParsed,
  type AgentStreamFrame,
} from '@slipway/contracts';
import { WebSocket } from 'ws';
import { CommandRunner, NamespacePolicy, parseCommand, parseStreamCommand } from './commands.js';
import { AgentError, toAgentError, type ExecHandle, type KubeClient } from './kube.js';
import { AGENT_VERSION } from './version.js';
import { KeptWatch } from './watch.js';

export interface AgentLogger {
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

/** One JSON line per event on stderr: what a container's log collector expects. */
export const jsonLogger: AgentLogger = {
  info: (message, extra) =>
    console.error(JSON.stringify({ level: 'info', time: new Date().toISOString(), message, ...extra })),
  warn: (message, extra) =>
    console.error(JSON.stringify({ level: 'warn', time: new Date().toISOString(), message, ...extra })),
  error: (message, extra) =>
    console.error(JSON.stringify({ level: 'error', time: new Date().toISOString(), message, ...extra })),
};

export const silentLogger: AgentLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export interface AgentOptions {
  /** the Slipway server: http(s)://host[:port] (or ws(s)://) */
  server: string;
  token: string;
  kube: KubeClient;
  heartbeatSeconds?: number;
  limited?: boolean;
  allowedNamespaces?: string[];
  /** reconnect delays: the first, and the most it grows to (exponential, with jitter) */
  backoff?: { initialMs: number; maxMs: number };
  /** frames kept per stream to send again after a reconnect */
  replayFrames?: number;
  log?: AgentLogger;
}

interface LocalStream {
  id: string;
  kind: AgentStreamCommandParsed['kind'];
  seq: number;
  /** recent frames, sent again after a reconnect when the server did not get them */
  buffer: AgentStreamFrame[];
  ended: boolean;
  stop(): void;
  exec?: ExecHandle;
  /** exec input that arrived before the exec session was open, sent in order once it is */
  pendingInput?: ExecInput[];
}

type ExecInput = { data?: string; resize?: { cols: number; rows: number } };

function writeExecInput(exec: ExecHandle, input: ExecInput): void {
  if (input.data !== undefined) exec.stdin.write(input.data);
  if (input.resize) exec.resize(input.resize.cols, input.resize.rows);
}

/** The WebSocket URL of the server's agent endpoint. */
export function connectUrl(server: string): string {
  const url = new URL(server.includes('://') ? server : `https://${server}`);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new Error(`--server: ${server} is not an http(s) or ws(s) address`);
  }
  url.pathname = url.pathname.replace(/\/$/, '') + AGENT_CONNECT_PATH;
  return url.toString();
}

/**
 * The wait before reconnect attempt `attempt` (0, 1, 2, …): exponential from `initialMs`, capped at
 * `maxMs`, with jitter between half and all of it, so agents that lost the server together do not
 * all come back at the same moment.
 */
export function reconnectDelay(
  attempt: number,
  backoff: { initialMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base / 2 + random() * (base / 2));
}

/**
 * The agent: dials out to the server, says hello, heartbeats, runs commands and streams, and
 * reconnects with exponential backoff and jitter. Events: 'welcome', 'disconnected' (code,
 * reason), 'refused' (HTTP status, message).
 */
export class Agent extends EventEmitter {
  private socket: WebSocket | null = null;
  private readonly url: string;
  private readonly policy: NamespacePolicy;
  private readonly runner: CommandRunner;
  private readonly streams = new Map<string, LocalStream>();
  private readonly log: AgentLogger;
  private readonly heartbeatMs: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly replayFrames: number;
  private attempt = 0;
  private heartbeatSeq = 0;
  private lastAckAt = 0;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private welcomed = false;
  private activeCommands = 0;
  /** how many times the agent was welcomed (connections that completed the hello) */
  connections = 0;

  constructor(private readonly options: AgentOptions) {
    super();
    this.url = connectUrl(options.server);
    this.log = options.log ?? jsonLogger;
    this.heartbeatMs = (options.heartbeatSeconds ?? AGENT_DEFAULT_HEARTBEAT_SECONDS) * 1000;
    this.backoff = options.backoff ?? { initialMs: 1_000, maxMs: 60_000 };
    this.replayFrames = options.replayFrames ?? 2_000;
    const limited = options.limited ?? false;
    this.policy = new NamespacePolicy(limited, options.allowedNamespaces ?? AGENT_DEFAULT_ALLOWED_NAMESPACES);
    this.runner = new CommandRunner(options.kube, this.policy);
  }

  get isConnected(): boolean {
    return this.welcomed && this.socket?.readyState === WebSocket.OPEN;
  }

  get openStreams(): number {
    return [...this.streams.values()].filter((s) => !s.ended).length;
  }

  start(): void {
    this.stopped = false;
    void this.dial();
  }

  /** Closes the connection and every stream; no reconnect. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopHeartbeats();
    for (const stream of this.streams.values()) stream.stop();
    this.streams.clear();
    const socket = this.socket;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close(1000, 'Agent stopping');
        setTimeout(() => {
          socket.terminate();
          resolve();
        }, 2_000).unref();
      });
    }
  }

  /** Drops the connection as a network failure would (tests); the agent reconnects. */
  dropConnection(): void {
    this.socket?.terminate();
  }

  private async hello(): Promise<AgentHello> {
    const facts = await this.options.kube.facts(this.policy.limited ? this.policy.allowed : null);
    return {
      type: 'hello',
      protocolVersion: AGENT_PROTOCOL_VERSION,
      agentVersion: AGENT_VERSION,
      ...facts,
      limited: this.policy.limited,
      allowedNamespaces: this.policy.limited ? this.policy.allowed : [],
      heartbeatSeconds: this.heartbeatMs / 1000,
      openStreams: [...this.streams.keys()],
    };
  }

  private async dial(): Promise<void> {
    if (this.stopped) return;
    let hello: AgentHello;
    try {
      hello = await this.hello();
    } catch (error) {
      this.log.error('reading the cluster failed', { error: String(error) });
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) return;
    const socket = new WebSocket(this.url, {
      headers: {
        authorization: `Bearer ${this.options.token}`,
        'user-agent': `slipway-agent/${AGENT_VERSION}`,
      },
      handshakeTimeout: 15_000,
    });
    this.socket = socket;
    this.welcomed = false;
    socket.on('open', () => {
      // The streams may have changed while the facts were read.
      socket.send(JSON.stringify({ ...hello, openStreams: [...this.streams.keys()] }));
    });
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        let message = body;
        try {
          message = (JSON.parse(body) as { message?: string }).message ?? body;
        } catch {
          /* plain text */
        }
        this.log.error('the server refused the agent', { status: res.statusCode, message });
        this.emit('refused', res.statusCode, message);
        socket.terminate();
      });
    });
    socket.on('message', (raw) => this.onMessage(socket, raw.toString()));
    socket.on('error', (error) => this.log.warn('connection error', { error: error.message }));
    socket.on('close', (code, reason) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopHeartbeats();
      const wasWelcomed = this.welcomed;
      this.welcomed = false;
      if (wasWelcomed) this.log.warn('disconnected from the server', { code, reason: reason.toString() });
      this.emit('disconnected', code, reason.toString());
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = reconnectDelay(this.attempt, this.backoff);
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.dial();
    }, delay);
  }

  private send(message: AgentMessage): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || !this.welcomed) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  private onMessage(socket: WebSocket, raw: string): void {
    let parsed;
    try {
      parsed = serverMessageSchema.safeParse(JSON.parse(raw));
    } catch {
      this.log.warn('the server sent a message that is not JSON');
      return;
    }
    if (!parsed.success) {
      this.log.warn('the server sent a malformed message', { issue: parsed.error.issues[0]?.message });
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'welcome': {
        this.welcomed = true;
        this.attempt = 0;
        this.connections++;
        this.lastAckAt = Date.now();
        const resume = new Map(message.resume.map((r) => [r.id, r.afterSeq]));
        for (const stream of [...this.streams.values()]) {
          const afterSeq = resume.get(stream.id);
          if (afterSeq === undefined) {
            stream.stop();
            this.streams.delete(stream.id);
            continue;
          }
          for (const frame of stream.buffer) if (frame.seq > afterSeq) socket.send(JSON.stringify(frame));
        }
        this.startHeartbeats();
        this.log.info('connected to the server', { clusterId: message.clusterId });
        this.emit('welcome', message);
        return;
      }
      case 'heartbeat_ack':
        this.lastAckAt = Date.now();
        return;
      case 'command':
        if (message.stream) void this.startStream(message.id, message.kind, message.args);
        else void this.runCommand(message.id, message.kind, message.args, message.deadline);
        return;
      case 'stream_input': {
        const stream = this.streams.get(message.id);
        if (!stream || stream.ended || stream.kind !== 'exec') return;
        const input: ExecInput = {
          ...(message.data !== undefined ? { data: message.data } : {}),
          ...(message.resize ? { resize: message.resize } : {}),
        };
        // Keystrokes may come before the exec WebSocket to the API server is open: keep them.
        if (stream.exec) writeExecInput(stream.exec, input);
        else (stream.pendingInput ??= []).push(input);
        return;
      }
      case 'cancel': {
        const stream = this.streams.get(message.id);
        if (stream) {
          stream.ended = true;
          stream.stop();
          this.streams.delete(message.id);
        }
        return;
      }
    }
  }

  private async runCommand(id: string, kind: string, args: unknown, deadline: number): Promise<void> {
    this.activeCommands++;
    try {
      if (Date.now() > deadline)
        throw new AgentError('timeout', `The ${kind} command arrived after its deadline`);
      const command = parseCommand(kind, args);
      const result = await this.runner.run(command);
      this.send({ type: 'reply', id, ok: true, result });
    } catch (error) {
      const e = toAgentError(error);
      this.send({ type: 'reply', id, ok: false, error: { code: e.code, message: e.message } });
    } finally {
      this.activeCommands--;
    }
  }

  private emitFrame(stream: LocalStream, frame: Omit<AgentStreamFrame, 'type' | 'id' | 'seq'>): void {
    if (stream.ended) return;
    const full: AgentStreamFrame = { type: 'frame', id: stream.id, seq: ++stream.seq, ...frame };
    stream.buffer.push(full);
    if (stream.buffer.length > this.replayFrames) stream.buffer.shift();
    if (frame.end) {
      stream.ended = true;
      // Kept a while, so the end can be sent again if the connection drops now.
      setTimeout(() => {
        if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
      }, 60_000).unref();
    }
    this.send(full);
  }

  private endStream(stream: LocalStream, error?: unknown): void {
    if (error) {
      const e = toAgentError(error);
      const body: AgentErrorBody = { code: e.code, message: e.message };
      this.emitFrame(stream, { end: true, error: body });
    } else {
      this.emitFrame(stream, { end: true });
    }
  }

  private async startStream(id: string, kind: string, args: unknown): Promise<void> {
    const stream: LocalStream = {
      id,
      kind: 'logs',
      seq: 0,
      buffer: [],
      ended: false,
      stop: () => undefined,
    };
    this.streams.set(id, stream);
    try {
      const command = parseStreamCommand(kind, args);
      stream.kind = command.kind;
      this.policy.check(command.args.namespace, `Namespace "${command.args.namespace}"`);
      const kube = this.options.kube;
      switch (command.kind) {
        case 'logs': {
          const handle = await kube.logs(command.args, (text) => this.emitFrame(stream, { data: text }));
          stream.stop = () => handle.abort();
          handle.done.then(
            () => this.endStream(stream),
            (error: unknown) => this.endStream(stream, error),
          );
          return;
        }
        case 'exec': {
          const handle = await kube.exec(
            command.args,
            (channel, text) => this.emitFrame(stream, { channel, data: text }),
            (status) => this.emitFrame(stream, { channel: 'status', data: status, end: true }),
          );
          stream.exec = handle;
          stream.stop = () => handle.close();
          for (const input of stream.pendingInput?.splice(0) ?? []) writeExecInput(handle, input);
          delete stream.pendingInput;
          return;
        }
        case 'watch': {
          // Resumes after a dropped connection and lists again after 410 Gone (watch.ts).
          const watch = new KeptWatch(
            kube,
            command.args,
            (type, object) => this.emitFrame(stream, { data: { type, object } }),
            (error) => this.endStream(stream, error),
          );
          stream.stop = () => watch.stop();
          await watch.start();
          return;
        }
      }
    } catch (error) {
      this.endStream(stream, error);
    }
  }

  private startHeartbeats(): void {
    this.stopHeartbeats();
    const beat = () => {
      // No answer to three heartbeats: the connection is dead even if TCP has not noticed.
      if (Date.now() - this.lastAckAt > this.heartbeatMs * 3 + 1_000) {
        this.log.warn('no heartbeat answers from the server; reconnecting');
        this.socket?.terminate();
        return;
      }
      this.send({
        type: 'heartbeat',
        seq: ++this.heartbeatSeq,
        at: new Date().toISOString(),
        activeCommands: this.activeCommands,
        activeStreams: this.openStreams,
      });
    };
    beat();
    this.heartbeatTimer = setInterval(beat, this.heartbeatMs);
  }

  private stopHeartbeats(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }
}
