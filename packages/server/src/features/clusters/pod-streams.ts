import {
  podExecInputSchema,
  type AgentStreamFrame,
  type PodExecInput,
  type PodExecQuery,
  type PodLogsQuery,
  type PodStreamFrame,
} from '@slipway/contracts';
import type { WebSocket } from 'ws';
import type { AuditEventInput, AuditRecorder } from '../../platform/audit-recorder.js';
import { AppError } from '../../platform/errors.js';
import type { AgentGateway, AgentStreamHandle } from '../agent-gateway/agent-gateway.js';
import { agentFailure } from './agent-errors.js';
import type { ClusterResourcesService } from './cluster-resources-service.js';
import type { ClusterRow } from './clusters-store.js';
import type { ClustersService } from './clusters-service.js';

/** How long a one-off log read may take before what arrived is answered. */
const LOG_READ_MS = 30_000;

export type ExecActor = Pick<
  AuditEventInput,
  'organisationId' | 'actorType' | 'actorId' | 'actorLabel' | 'ip' | 'userAgent'
>;

const send = (socket: WebSocket, frame: PodStreamFrame) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
};

function failureMessage(err: unknown): string {
  const mapped = agentFailure(err);
  return mapped instanceof Error ? mapped.message : String(mapped);
}

const text = (frame: AgentStreamFrame) => (typeof frame.data === 'string' ? frame.data : '');

/** Pod logs and exec terminals through the cluster's agent, for HTTP and the browser's sockets. */
export class PodStreams {
  constructor(
    private readonly gateway: AgentGateway,
    private readonly clusters: ClustersService,
    private readonly resources: ClusterResourcesService,
    private readonly audit: AuditRecorder,
  ) {}

  /** The log so far (not followed). */
  async logText(cluster: ClusterRow, query: PodLogsQuery): Promise<string> {
    this.resources.checkNamespace(cluster, query.namespace);
    let out = '';
    let handle: AgentStreamHandle;
    try {
      handle = await this.gateway.stream(
        cluster.id,
        { kind: 'logs', args: { ...query, follow: false } },
        (frame) => (out += text(frame)),
      );
    } catch (err) {
      throw agentFailure(err);
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        handle.done,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, LOG_READ_MS))),
      ]);
    } catch (err) {
      throw agentFailure(err);
    } finally {
      clearTimeout(timer);
      handle.close();
    }
    return out;
  }

  /** Follows a log onto the browser's socket until either side ends. */
  async followLogs(socket: WebSocket, workspaceId: string, clusterId: string, query: PodLogsQuery) {
    await this.pipe(socket, workspaceId, clusterId, query, async (cluster) =>
      this.gateway.stream(cluster.id, { kind: 'logs', args: { ...query, follow: true } }, (frame) => {
        if (frame.data !== undefined) send(socket, { type: 'data', data: text(frame) });
      }),
    );
  }

  /** A terminal: keystrokes and resizes in, output out; each session is in the audit trail. */
  async exec(
    socket: WebSocket,
    workspaceId: string,
    clusterId: string,
    query: PodExecQuery,
    actor: ExecActor,
  ) {
    // Keystrokes before the agent's stream exists are kept here and sent in order once it does;
    // the agent itself keeps those that reach it before its exec session is open.
    const early: PodExecInput[] = [];
    let handle: AgentStreamHandle | null = null;
    const forward = (h: AgentStreamHandle, input: PodExecInput) => {
      if (input.type === 'input') h.input({ data: input.data });
      else h.input({ resize: { cols: input.cols, rows: input.rows } });
    };
    socket.on('message', (raw) => {
      let parsed;
      try {
        parsed = podExecInputSchema.safeParse(JSON.parse(String(raw)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      if (handle) forward(handle, parsed.data);
      else early.push(parsed.data);
    });
    const command = query.command ? query.command.split(/\s+/).filter(Boolean) : ['/bin/sh'];
    await this.pipe(socket, workspaceId, clusterId, query, async (cluster) => {
      await this.audit.append({
        ...actor,
        workspaceId,
        action: 'cluster.exec',
        targetType: 'pod',
        targetId: `${query.namespace}/${query.pod}`,
        fingerprint: null,
        outcome: 'success',
        statusCode: 101,
        detail: { clusterId: cluster.id, container: query.container ?? null, command },
      });
      handle = await this.gateway.stream(
        cluster.id,
        {
          kind: 'exec',
          args: {
            namespace: query.namespace,
            pod: query.pod,
            ...(query.container ? { container: query.container } : {}),
            command,
            tty: true,
          },
        },
        (frame) => {
          if (frame.channel === 'status') return;
          if (frame.data !== undefined)
            send(socket, {
              type: 'data',
              data: text(frame),
              ...(frame.channel === 'stderr' ? { channel: 'stderr' as const } : {}),
            });
        },
      );
      for (const input of early.splice(0)) forward(handle, input);
      return handle;
    });
  }

  /** Opens the agent's stream for the socket, ends the socket when the stream ends, and back. */
  private async pipe(
    socket: WebSocket,
    workspaceId: string,
    clusterId: string,
    query: { namespace: string },
    open: (cluster: ClusterRow) => Promise<AgentStreamHandle>,
  ) {
    let handle: AgentStreamHandle | null = null;
    let closed = false;
    socket.on('close', () => {
      closed = true;
      handle?.close();
    });
    try {
      const cluster = await this.clusters.require(workspaceId, clusterId);
      this.resources.checkNamespace(cluster, query.namespace);
      handle = await open(cluster);
      if (closed) {
        handle.close();
        return;
      }
      await handle.done;
      send(socket, { type: 'end' });
    } catch (err) {
      const message = err instanceof AppError ? err.message : failureMessage(err);
      send(socket, { type: 'end', error: message });
    }
    if (socket.readyState === socket.OPEN) socket.close(1000);
  }
}
