import type { FastifyRequest } from 'fastify';
import { HEADERS } from '@slipway/contracts';
import type { Principal } from './auth/principal.js';
import { NotAllowedError } from './errors.js';
import { headerValue } from './headers.js';

/** Where a sign-in or session change comes from: kept with the session and in the audit trail. */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
  fingerprint: string | null;
}

export function requestContext(request: FastifyRequest): RequestContext {
  return {
    ip: request.ip ?? null,
    userAgent: headerValue(request, 'user-agent'),
    fingerprint: headerValue(request, HEADERS.fingerprint),
  };
}

/** The signed-in person; service accounts have no profile or password. */
export function personOf(principal: Principal | null): Extract<Principal, { kind: 'user' }> {
  if (principal?.kind !== 'user') throw new NotAllowedError('Only a signed-in person can do this');
  return principal;
}
