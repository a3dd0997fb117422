import type { FastifyRequest } from 'fastify';
import { HEADERS, WS_CREDENTIAL_PREFIXES } from '@slipway/contracts';

/** A request header's value (the first, if it came more than once), or null. */
export function headerValue(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}

/** The workspace named by x-workspace-id, trimmed; null when absent or blank. */
export function workspaceHeader(request: FastifyRequest): string | null {
  return headerValue(request, HEADERS.workspace)?.trim() || null;
}

const WS_PREFIX = '/api/ws/';
const CARRIED: Record<string, string> = {
  [WS_CREDENTIAL_PREFIXES.authorization]: HEADERS.authorization,
  [WS_CREDENTIAL_PREFIXES.workspace]: HEADERS.workspace,
  [WS_CREDENTIAL_PREFIXES.fingerprint]: HEADERS.fingerprint,
};

/**
 * Browsers cannot set headers on a WebSocket, so a WebSocket upgrade under `/api/ws/` may carry
 * the authorization, workspace and fingerprint as base64url entries of Sec-WebSocket-Protocol
 * (see `webSocketProtocols` in contracts). They become the request's headers when those are
 * absent, so the access hook checks them like any other request. Nothing else is touched.
 */
export function adoptWebSocketCredentials(request: FastifyRequest): void {
  if (!request.url.startsWith(WS_PREFIX)) return;
  if (headerValue(request, 'upgrade')?.toLowerCase() !== 'websocket') return;
  const offered = headerValue(request, 'sec-websocket-protocol');
  if (!offered) return;
  for (const entry of offered.split(',')) {
    const item = entry.trim();
    for (const [prefix, header] of Object.entries(CARRIED)) {
      if (!item.startsWith(prefix) || request.headers[header] !== undefined) continue;
      const value = Buffer.from(item.slice(prefix.length), 'base64url').toString('utf8');
      if (value) request.headers[header] = value;
    }
  }
}
