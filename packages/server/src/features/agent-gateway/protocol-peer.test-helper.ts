import { randomBytes, randomUUID } from 'node:crypto';
import {
  AGENT_PROTOCOL_VERSION,
  serverMessageSchema,
  type AgentHello,
  type AgentMessage,
  type ServerMessage,
} from '@slipway/contracts';
import { WebSocket } from 'ws';
import type { AppDb } from '../../platform/database/database.js';
import { clusters } from '../../platform/database/schema.js';
import { hashToken } from '../../platform/keys.js';

/** A cluster row with a fresh agent token, as the attach flow creates it. */
export async function insertCluster(
  db: AppDb,
  workspaceId: string,
  options: { name?: string; limited?: boolean; allowedNamespaces?: string[] } = {},
): Promise<{ id: string; token: string }> {
  const id = randomUUID();
  const token = `slw_agent_${randomBytes(24).toString('base64url')}`;
  await db.insert(clusters).values({
    id,
    workspaceId,
    name: options.name ?? `cluster-${id.slice(0, 8)}`,
    type: 'other',
    status: 'attaching',
    tokenHash: hashToken(token),
    tokenPrefix: token.slice(0, 14),
    limitedAgentPermission: options.limited ?? false,
    allowedNamespaces: options.allowedNamespaces ?? ['ozone'],
  });
  return { id, token };
}

export const sampleHello = (overrides: Partial<AgentHello> = {}): AgentHello => ({
  type: 'hello',
  protocolVersion: AGENT_PROTOCOL_VERSION,
  agentVersion: '0.1.0',
  kubernetesVersion: 'v1.31.2',
  nodeCount: 2,
  totalVcpu: 8,
  namespaces: ['default', 'ozone'],
  installedAddons: ['tekton'],
  storageClasses: [
    {
      name: 'standard',
      provisioner: 'rancher.io/local-path',
      reclaimPolicy: 'Delete',
      bindingMode: 'WaitForFirstConsumer',
      default: true,
    },
  ],
  limited: false,
  allowedNamespaces: [],
  heartbeatSeconds: 30,
  openStreams: [],
  ...overrides,
});

/** A plain WebSocket speaking the agent protocol by hand, for gateway tests. */
export class ProtocolPeer {
  readonly received: ServerMessage[] = [];
  private waiters: { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (raw) => {
      const message = serverMessageSchema.parse(JSON.parse(raw.toString())) as ServerMessage;
      this.received.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Connects; rejects with the HTTP status when the upgrade is refused. */
  static connect(url: string, token: string): Promise<ProtocolPeer> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
      socket.once('open', () => resolve(new ProtocolPeer(socket)));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          reject(
            Object.assign(new Error(`HTTP ${res.statusCode}: ${body}`), { status: res.statusCode, body }),
          ),
        );
      });
      socket.once('error', reject);
    });
  }

  send(message: AgentMessage | Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  next<T extends ServerMessage['type']>(
    type: T,
    match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true,
    timeoutMs = 5_000,
  ): Promise<Extract<ServerMessage, { type: T }>> {
    const found = this.received.find(
      (m) => m.type === type && match(m as Extract<ServerMessage, { type: T }>),
    );
    if (found) {
      this.received.splice(this.received.indexOf(found), 1);
      return Promise.resolve(found as Extract<ServerMessage, { type: T }>);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${type} message within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        match: (m) => m.type === type && match(m as Extract<ServerMessage, { type: T }>),
        resolve: (m) => {
          clearTimeout(timer);
          this.received.splice(this.received.indexOf(m), 1);
          resolve(m as Extract<ServerMessage, { type: T }>);
        },
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
