import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where the id of an audited route's target comes from:
 * - 'params.<name>' / 'body.<name>': the validated request's field;
 * - 'response.<path>': a field of the answer's JSON (dots walk into objects, e.g.
 *   'response.cluster.id'), read only from a 2xx JSON answer: the id of what a create made;
 * - a function of the request and that answer (undefined unless 2xx JSON), for the odd case.
 */
export type AuditTargetId =
  | `params.${string}`
  | `body.${string}`
  | `response.${string}`
  | ((request: FastifyRequest, responseBody: unknown) => string | undefined);

/** What a mutating route acts on, declared in its `config.auditTarget`. */
export interface AuditTarget {
  /** the kind of thing, e.g. 'schedule' */
  type: string;
  id?: AuditTargetId;
}

const SOURCES = ['params', 'body', 'response'] as const;

/**
 * Refuses, when the route is registered, a declaration the hook could never resolve: an unknown
 * source, an empty path, or a 'params.<name>' the route's path does not have.
 */
export function checkAuditTarget(url: string, target: AuditTarget) {
  const where = `Route ${url} declares auditTarget`;
  if (!target.type) throw new Error(`${where} without a type`);
  const id = target.id;
  if (id === undefined || typeof id === 'function') return;
  const dot = id.indexOf('.');
  const source = id.slice(0, dot);
  const path = id.slice(dot + 1);
  if (dot < 0 || !SOURCES.includes(source as (typeof SOURCES)[number]) || path.split('.').some((p) => !p)) {
    throw new Error(`${where} with an id it cannot read: '${id}'`);
  }
  if (source === 'params' && !url.split('/').includes(`:${path}`)) {
    throw new Error(`${where} with '${id}', which its path does not have`);
  }
}

function fieldAt(value: unknown, path: string): string | undefined {
  let at = value;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}

/**
 * The answer's JSON, for a 2xx answer whose payload (in onSend: already serialised) is a JSON
 * string; undefined for a failure, an empty answer, a stream or buffer, or text that is not JSON.
 */
export function responseBodyOf(reply: FastifyReply, payload: unknown): unknown {
  if (reply.statusCode < 200 || reply.statusCode >= 300 || typeof payload !== 'string') return undefined;
  const contentType = reply.getHeader('content-type');
  if (typeof contentType !== 'string' || !/\bjson\b/i.test(contentType)) return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

/** The declared target's id for this request and answer; undefined when it cannot be read (never throws). */
export function resolveAuditTargetId(
  id: AuditTargetId | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string | undefined {
  if (id === undefined) return undefined;
  if (typeof id === 'function') {
    try {
      return id(request, responseBodyOf(reply, payload));
    } catch (err) {
      // the record is written without the id rather than not at all
      request.log.error({ err }, 'audit target id could not be read');
      return undefined;
    }
  }
  const dot = id.indexOf('.');
  const source = id.slice(0, dot);
  const path = id.slice(dot + 1);
  if (source === 'params') return fieldAt(request.params, path);
  if (source === 'body') return fieldAt(request.body, path);
  return fieldAt(responseBodyOf(reply, payload), path);
}
