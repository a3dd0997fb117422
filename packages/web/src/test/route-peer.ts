import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZodError } from 'zod';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';
import type { Reply } from './peer-types';

/**
 * The plumbing of a small loopback HTTP peer for one area of the API (test only): a `route`
 * function answers each request with a `Reply`, the peer records every request, and
 * `forwardPaths` sends the area's paths to it while the rest goes on as before.
 */
export type { Reply } from './peer-types';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}
export type Route = (method: string, path: string, query: URLSearchParams, body: unknown) => Reply;

/** An error answer in the API's shape. */
export function fail(status: number, message: string, details?: { path: string; message: string }[]): Reply {
  return [status, { statusCode: status, error: 'Error', message, requestId: randomUUID(), details }];
}

/** The 400 answer for a request body the contracts' schema refused. */
export function invalid(error: ZodError): Reply {
  const details = error.issues.map((i) => ({ path: `body.${i.path.join('.')}`, message: i.message }));
  return fail(400, `${details[0]?.path}: ${details[0]?.message}`, details);
}

/** A list answer paged with `_start`/`_end`, its total in `X-Total-Count`. */
export function page<T>(rows: T[], query: URLSearchParams): Reply {
  const start = Number(query.get('_start') ?? 0);
  const end = Number(query.get('_end') ?? 10);
  // sorted as the server sorts: on `_sort` when given, descending with `_order=DESC`
  const key = query.get('_sort');
  const sign = query.get('_order') === 'DESC' ? -1 : 1;
  const sorted = key
    ? [...rows].sort((a, b) => {
        const [x, y] = [(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]];
        return sign * String(x ?? '').localeCompare(String(y ?? ''));
      })
    : rows;
  return [200, sorted.slice(start, end), { [TOTAL_COUNT_HEADER]: String(rows.length) }];
}

/** Serves `route` on a loopback port, recording each request in `requests`. */
export async function serveRoutes(requests: RecordedRequest[], route: Route) {
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const [status, answer, headers = {}] = route(req.method ?? 'GET', url.pathname, url.searchParams, body);
      if (answer === undefined) res.writeHead(status, headers).end();
      else
        res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    calls: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** fetch as it was before any test forwarded it */
const realFetch = globalThis.fetch;

/** Sends the paths `paths` matches to `origin`, everything else on as before; returns the undo. */
export function forwardPaths(origin: string, paths: RegExp): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (!paths.test(url.pathname)) return previous(input, init);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    return realFetch(`${origin}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body,
    });
  }) as typeof fetch;
  return () => {
    globalThis.fetch = previous;
  };
}
