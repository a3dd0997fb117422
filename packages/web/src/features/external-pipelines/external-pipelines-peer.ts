import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZodError } from 'zod';
import {
  externalPipelineCreateSchema,
  externalPipelineUpdateSchema,
  TOTAL_COUNT_HEADER,
  type ExternalPipeline,
  type ExternalPipelineSync,
} from '@slipway/contracts';

/**
 * A loopback HTTP peer for the external pipelines page (test only): `/api/external-pipelines`
 * kept in memory, requests checked with the contracts' schemas, answers in the API's shapes. A
 * test sets `refuse` (the next create or update answers 400 with these details, as the server
 * does when the file cannot be read or validated) and `nextSync` (what the next sync answers).
 */
type Reply = [number, unknown?, Record<string, string>?];
const AT = '2026-05-01T10:00:00.000Z';

function fail(status: number, message: string, details?: { path: string; message: string }[]): Reply {
  return [status, { statusCode: status, error: 'Error', message, requestId: randomUUID(), details }];
}
function invalid(error: ZodError): Reply {
  const details = error.issues.map((i) => ({ path: `body.${i.path.join('.')}`, message: i.message }));
  return fail(400, `${details[0]?.path}: ${details[0]?.message}`, details);
}

export async function startExternalPipelinesPeer() {
  const state = {
    pipelines: [] as ExternalPipeline[],
    requests: [] as { method: string; path: string; body: unknown }[],
    refuse: null as { path: string; message: string } | null,
    nextSync: { outcome: 'unchanged', syncError: null } as {
      outcome: ExternalPipelineSync['outcome'];
      syncError: string | null;
    },
  };

  function route(method: string, path: string, query: URLSearchParams, body: unknown): Reply {
    const [, , id, action] = path.split('/').filter(Boolean); // api, external-pipelines, :id, sync
    const found = state.pipelines.find((p) => p.id === id);
    if (method === 'GET' && !id) {
      const start = Number(query.get('_start') ?? 0);
      const end = Number(query.get('_end') ?? 10);
      return [
        200,
        state.pipelines.slice(start, end),
        { [TOTAL_COUNT_HEADER]: String(state.pipelines.length) },
      ];
    }
    if ((method === 'POST' && !id) || method === 'PUT') {
      const p = (id ? externalPipelineUpdateSchema : externalPipelineCreateSchema).safeParse(body);
      if (!p.success) return invalid(p.error);
      if (state.refuse) {
        const refusal = state.refuse;
        state.refuse = null;
        return fail(400, `${refusal.path.replace(/^body\./, '')}: ${refusal.message}`, [refusal]);
      }
      const source = p.data.source && { ...p.data.source, secret: p.data.source.secret ?? null };
      if (id) {
        if (!found) return fail(404, 'External pipeline not found');
        Object.assign(found, {
          ...(p.data.name !== undefined ? { name: p.data.name } : {}),
          ...(p.data.description !== undefined ? { description: p.data.description } : {}),
          ...(source ? { source } : {}),
        });
        return [200, found];
      }
      const created: ExternalPipeline = {
        id: randomUUID(),
        kind: 'pipeline',
        name: p.data.name!,
        description: p.data.description ?? '',
        version: 1,
        rollbackPipelineId: null,
        createdAt: AT,
        updatedAt: AT,
        source: source!,
        lastSyncedAt: AT,
        syncError: null,
      };
      state.pipelines.push(created);
      return [201, created];
    }
    if (!found) return fail(404, 'External pipeline not found');
    if (method === 'POST' && action === 'sync') {
      const { outcome, syncError } = state.nextSync;
      if (outcome === 'changed') found.version += 1;
      found.syncError = outcome === 'failed' ? syncError : null;
      if (outcome !== 'failed') found.lastSyncedAt = '2026-05-02T10:00:00.000Z';
      return [200, { outcome, pipeline: found }];
    }
    if (method === 'GET') return [200, found];
    if (method === 'DELETE') {
      state.pipelines = state.pipelines.filter((p) => p !== found);
      return [204];
    }
    return fail(404, `No route ${method} ${path}`);
  }

  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      const text = Buffer.concat(chunks).toString('utf8');
      const body: unknown = text ? JSON.parse(text) : undefined;
      state.requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
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
    state,
    calls: (method: string, path: string) =>
      state.requests.filter((r) => r.method === method && r.path === path),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type ExternalPipelinesPeer = Awaited<ReturnType<typeof startExternalPipelinesPeer>>;

/** fetch as it was before any test forwarded it */
const realFetch = globalThis.fetch;

/** Sends /api/external-pipelines to the peer, everything else on as before. */
export function forwardExternalPipelines(peer: ExternalPipelinesPeer): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (!/^\/api\/external-pipelines(\/|$)/.test(url.pathname)) return previous(input, init);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.text();
    return realFetch(`${peer.origin}${url.pathname}${url.search}`, {
      method: req.method,
      headers: req.headers,
      body,
    });
  }) as typeof fetch;
  return () => {
    globalThis.fetch = previous;
  };
}
