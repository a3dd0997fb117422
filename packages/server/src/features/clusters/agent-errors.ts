import { AGENT_NOT_ACTIVE_MESSAGE } from '@slipway/contracts';
import { AppError } from '../../platform/errors.js';
import { AgentCommandError } from '../agent-gateway/agent-gateway.js';

const STATUS: Record<AgentCommandError['code'], number> = {
  // The cluster's agent is not connected: a state the caller can see and fix ('Agent not active').
  not_connected: 409,
  forbidden_namespace: 400,
  invalid: 400,
  unsupported: 400,
  not_found: 404,
  conflict: 409,
  // What the Kubernetes API refused, in its words (RBAC, a bad manifest, …).
  kubernetes: 422,
  timeout: 504,
  internal: 502,
};

/** An agent's failure as an HTTP error; anything else is passed on unchanged. */
export function agentFailure(err: unknown): unknown {
  if (!(err instanceof AgentCommandError)) return err;
  const message = err.code === 'not_connected' ? AGENT_NOT_ACTIVE_MESSAGE : err.message;
  return new AppError(STATUS[err.code] ?? 502, message);
}

/** Runs a call to the agent, mapping its failures to HTTP errors. */
export async function throughAgent<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw agentFailure(err);
  }
}
