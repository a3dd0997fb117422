import { ApiException } from '@kubernetes/client-node';
import type { AgentErrorCode } from '@slipway/contracts';

/** An error with a protocol code, carried back to the server in a reply. */
export class AgentError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

/** The Kubernetes API's answer turned into a short, clear AgentError. */
export function toAgentError(error: unknown): AgentError {
  if (error instanceof AgentError) return error;
  if (error instanceof ApiException) {
    const status = statusOf(error.body);
    const message = status?.message ?? `The Kubernetes API answered ${error.code}`;
    const code: AgentErrorCode =
      error.code === 404
        ? 'not_found'
        : error.code === 409
          ? 'conflict'
          : error.code === 400 || error.code === 422
            ? 'invalid'
            : 'kubernetes';
    return new AgentError(code, message);
  }
  const e = error as { statusCode?: number; message?: string };
  return new AgentError('kubernetes', e?.message ?? String(error));
}

function statusOf(body: unknown): { message?: string } | null {
  if (typeof body === 'string') {
    try {
      return JSON.parse(body) as { message?: string };
    } catch {
      return body ? { message: body } : null;
    }
  }
  return typeof body === 'object' && body !== null ? (body as { message?: string }) : null;
}
