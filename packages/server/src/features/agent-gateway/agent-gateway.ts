import type {
  AgentCommand,
  AgentErrorCode,
  AgentResults,
  AgentStreamCommand,
  AgentStreamFrame,
} from '@slipway/contracts';

export type { AgentCommand, AgentStreamCommand, AgentStreamFrame, AgentResults };
export type { AgentReplyResult } from '@slipway/contracts';

/** A command failed: the agent answered with an error, it timed out, or the agent is not connected. */
export class AgentCommandError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AgentCommandError';
  }
}

export interface AgentStreamHandle {
  /** stop the stream (the agent is told to cancel it) */
  close(): void;
  /** send exec stdin or a terminal resize; ignored for other streams */
  input(data: { data?: string; resize?: { cols: number; rows: number } }): void;
  /** resolves when the stream ends; rejects with an AgentCommandError when it fails */
  done: Promise<void>;
}

/**
 * How the rest of the server talks to the clusters' agents. Requests are answered by the
 * cluster's connected agent; when none is connected they reject with 'Agent not active'.
 */
export interface AgentGateway {
  isConnected(clusterId: string): boolean;
  request<K extends AgentCommand['kind']>(
    clusterId: string,
    command: Extract<AgentCommand, { kind: K }>,
    options?: { timeoutMs?: number },
  ): Promise<AgentResults[K]>;
  stream(
    clusterId: string,
    command: AgentStreamCommand,
    onFrame: (frame: AgentStreamFrame) => void,
  ): Promise<AgentStreamHandle>;
  /** close the agent's connection (detach, token revoked); it may reconnect unless its token is revoked */
  disconnect(clusterId: string, reason: string): void;
}
