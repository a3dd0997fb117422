import { randomUUID } from 'node:crypto';
import {
  externalPipelineCreateSchema,
  externalPipelineUpdateSchema,
  type ExternalPipeline,
  type ExternalPipelineSync,
} from '@slipway/contracts';
import { fail, forwardPaths, invalid, page, serveRoutes, type Reply } from '../../test/route-peer';

/**
 * A loopback HTTP peer for the external pipelines page (test only): `/api/external-pipelines`
 * kept in memory, requests checked with the contracts' schemas, answers in the API's shapes. A
 * test sets `refuse` (the next create or update answers 400 with these details, as the server
 * does when the file cannot be read or validated) and `nextSync` (what the next sync answers).
 */
const AT = '2026-05-01T10:00:00.000Z';

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
    if (method === 'GET' && !id) return page(state.pipelines, query);
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

  const served = await serveRoutes(state.requests, route);
  return { ...served, state };
}
export type ExternalPipelinesPeer = Awaited<ReturnType<typeof startExternalPipelinesPeer>>;

/** Sends /api/external-pipelines to the peer, everything else on as before. */
export function forwardExternalPipelines(peer: ExternalPipelinesPeer): () => void {
  return forwardPaths(peer.origin, /^\/api\/external-pipelines(\/|$)/);
}
