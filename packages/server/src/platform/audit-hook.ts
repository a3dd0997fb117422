import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { HEADERS } from '@slipway/contracts';
import type { AuditOutcome, AuditRecorder } from './audit-recorder.js';
import { checkAuditTarget, resolveAuditTargetId } from './audit-target.js';
import { actorIdOf, actorLabelOf } from './auth/principal.js';
import { headerValue } from './headers.js';
import { withoutNul } from './nul-guard.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function outcomeOf(statusCode: number): AuditOutcome {
  if (statusCode < 400) return 'success';
  return statusCode === 403 ? 'denied' : 'failure';
}

/**
 * Every mutating API request is recorded, whatever the outcome: who, in which organisation and
 * workspace, what action on which target, from where, and how it ended. The record is written
 * once the answer is decided and before it is sent, so no client sees a change the trail does
 * not hold. Sign-in, logout, password and token changes are mutating requests, so they are
 * recorded too.
 *
 * The target is what the route declares in `config.auditTarget` (see audit-target.ts), once its
 * handler has been called: a request refused before it (401, 403, 404 from the access check, 400
 * from validation) names no target, as when handlers set it themselves. What a handler sets in
 * `request.audit` wins over the declaration, and a handler may mark a successful request as not
 * worth a record (`request.audit.notRecorded`: the guided tour's progress).
 */
export function registerAuditTrail(app: FastifyInstance, store: AuditRecorder) {
  const handled = new WeakSet<FastifyRequest>();
  app.addHook('onRoute', (route) => {
    const target = route.config?.auditTarget;
    if (!target) return;
    checkAuditTarget(route.url, target);
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      handled.add(request);
      return handler.call(this, request, reply);
    } as RouteHandlerMethod;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (!url || !url.startsWith('/api') || !MUTATING.has(request.method)) return payload;
    const p = request.principal;
    const a = request.audit ?? {};
    if (a.notRecorded && reply.statusCode < 400) return payload;
    try {
      const declared = handled.has(request) ? request.routeOptions.config.auditTarget : undefined;
      const targetType = a.targetType ?? declared?.type ?? null;
      const targetId = a.targetId ?? resolveAuditTargetId(declared?.id, request, reply, payload) ?? null;
      // The record is kept whatever the request held: a NUL (which PostgreSQL refuses) is stored
      // as the text \u0000.
      await store.append(
        withoutNul({
          organisationId: a.organisationId ?? p?.organisationId ?? null,
          workspaceId: a.workspaceId ?? request.workspaceId ?? null,
          actorType: p ? p.kind : 'anonymous',
          actorId: actorIdOf(p),
          actorLabel: p ? actorLabelOf(p) : (a.actorLabel ?? null),
          action: request.routeOptions.config.auditAction ?? `${request.method} ${url}`,
          targetType,
          targetId,
          ip: request.ip ?? null,
          userAgent: headerValue(request, 'user-agent'),
          fingerprint: headerValue(request, HEADERS.fingerprint),
          outcome: outcomeOf(reply.statusCode),
          statusCode: reply.statusCode,
          detail: a.detail ?? null,
        }),
      );
    } catch (err) {
      request.log.error({ err }, 'audit record could not be written');
    }
    return payload;
  });
}
