import type { FastifyRequest } from 'fastify';
import { HEADERS } from '@slipway/contracts';

/** A request header's value (the first, if it came more than once), or null. */
export function headerValue(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}

/** The workspace named by x-workspace-id, trimmed; null when absent or blank. */
export function workspaceHeader(request: FastifyRequest): string | null {
  return headerValue(request, HEADERS.workspace)?.trim() || null;
}
