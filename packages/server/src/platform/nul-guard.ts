import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InputError } from './errors.js';

/**
 * PostgreSQL refuses U+0000 in text and jsonb, so a NUL that reached a query made the request
 * answer 500 and lost its audit record. No field of the API has a use for one: a NUL anywhere in
 * a request (path, params, query, headers, body strings and keys, raw or percent-encoded) answers
 * 400 in the usual validation shape, naming the field, before any route code or query runs.
 */
export const NUL_RULE = 'must not contain a NUL character';

const NUL = '\u0000';
/** How a NUL is written where it must be shown (field names, stored records): six plain characters. */
const SHOWN = '\\u0000';

const shown = (key: string) => key.replaceAll(NUL, SHOWN);

/** The path (`where.a.0.b`) of the first string or key holding a NUL, or null when none does. */
export function firstNul(value: unknown, where: string): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? where : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstNul(value[i], `${where}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      const at = `${where}.${shown(key)}`;
      if (key.includes(NUL)) return at;
      const found = firstNul(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** A copy with every NUL in strings and keys written as `\u0000` text, for what is stored as-is. */
export function withoutNul<T>(value: T): T {
  if (typeof value === 'string') return (value.includes(NUL) ? shown(value) : value) as T;
  if (Array.isArray(value)) return value.map((v) => withoutNul(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [shown(k), withoutNul(v)])) as T;
  }
  return value;
}

/**
 * A body kept as raw bytes (the webhook receiver's) is read the way its route will read it: a
 * NUL byte anywhere, or a NUL in its JSON (`\u0000`) or form fields (`%00`), whose values may be
 * JSON themselves (GitHub's `payload=`).
 */
function firstNulInRaw(raw: Buffer, contentType: string): string | null {
  const text = raw.toString('utf8');
  if (text.includes(NUL)) return 'body';
  const json = (s: string) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      return undefined;
    }
  };
  if (contentType.includes('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(text)) {
      const at = `body.${shown(key)}`;
      if (key.includes(NUL) || value.includes(NUL)) return at;
      const found = firstNul(json(value), at);
      if (found) return found;
    }
    return null;
  }
  return firstNul(json(text), 'body');
}

function refuse(field: string): never {
  throw new InputError(`${field}: ${NUL_RULE}`, [{ path: field, message: NUL_RULE }]);
}

function checkHeaders(request: FastifyRequest) {
  for (const [name, value] of Object.entries(request.headers)) {
    const values = Array.isArray(value) ? value : [value];
    if (name.includes(NUL) || values.some((v) => typeof v === 'string' && v.includes(NUL))) {
      refuse(`headers.${shown(name)}`);
    }
  }
}

function checkUrl(request: FastifyRequest) {
  const params = firstNul(request.params, 'params');
  if (params) refuse(params);
  const query = firstNul(request.query, 'querystring');
  if (query) refuse(query);
  // A NUL the router and the query parser did not hand over as a value (a static path segment).
  let decoded = request.url;
  try {
    decoded = decodeURIComponent(request.url);
  } catch {
    // a malformed escape is the router's business, not a NUL
  }
  if (decoded.includes(NUL) || /%00/.test(request.url)) refuse('path');
}

/**
 * Registers the guard. Headers are checked first, on every request, before the access hook reads
 * the token and the workspace (so call this before `registerAccessControl`). The path, params,
 * query and body are checked in `preValidation`: after the access check, so the refused request's
 * audit record names who sent it, and before the schema runs, so the answer names the NUL rule.
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    checkHeaders(request);
  });
  app.addHook('preValidation', async (request) => {
    checkUrl(request);
    const body = request.body;
    // a body a route reads as a stream (git's packs) is bytes it passes on, not fields
    if (body instanceof Readable) return;
    const found = Buffer.isBuffer(body)
      ? firstNulInRaw(body, String(request.headers['content-type'] ?? '').toLowerCase())
      : firstNul(body, 'body');
    if (found) refuse(found);
  });
}
