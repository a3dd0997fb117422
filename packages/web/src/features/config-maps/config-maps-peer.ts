import {
  configMapCreateSchema,
  configMapUpdateSchema,
  type ConfigMap,
  type ConfigMapUpdate,
} from '@slipway/contracts';
import { fail, forwardPaths, invalid, page, serveRoutes, type Reply } from '../../test/route-peer';

/**
 * A loopback HTTP peer for the config maps page (test only): `/api/config-maps` kept in memory,
 * validated with the contracts' schemas and answering in the API's shapes (lists paged with
 * `_start`/`_end` and `X-Total-Count`). `forwardConfigMaps` sends these paths here.
 */
export async function startConfigMapsPeer() {
  const state = {
    configMaps: [] as ConfigMap[],
    requests: [] as { method: string; path: string; body: unknown }[],
    /** when set, every list answers this status (to show the load error) */
    listStatus: null as number | null,
  };
  let seq = 0;
  const now = () => new Date().toISOString();

  function route(method: string, path: string, query: URLSearchParams, body: unknown): Reply {
    const id = path.split('/')[3];
    if (method === 'GET' && !id) {
      if (state.listStatus) return fail(state.listStatus, 'Something went wrong. Please try again!');
      return page(state.configMaps, query);
    }
    if (method === 'POST' && !id) {
      const p = configMapCreateSchema.safeParse(body);
      if (!p.success) return invalid(p.error);
      if (state.configMaps.some((c) => c.name === p.data.name))
        return fail(409, 'A config map with this name already exists');
      const created: ConfigMap = {
        id: `cm-${++seq}`,
        name: p.data.name,
        description: p.data.description ?? '',
        data: p.data.data,
        createdAt: now(),
        updatedAt: now(),
      };
      state.configMaps.push(created);
      return [201, created];
    }
    const found = state.configMaps.find((c) => c.id === id);
    if (!found) return fail(404, 'Config map not found');
    if (method === 'PUT') {
      const p = configMapUpdateSchema.safeParse(body);
      if (!p.success) return invalid(p.error);
      const change: ConfigMapUpdate = p.data;
      if (change.name && state.configMaps.some((c) => c !== found && c.name === change.name))
        return fail(409, 'A config map with this name already exists');
      Object.assign(found, Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)), {
        updatedAt: now(),
      });
      return [200, found];
    }
    if (method === 'DELETE') {
      state.configMaps = state.configMaps.filter((c) => c !== found);
      return [204];
    }
    return [200, found];
  }

  const served = await serveRoutes(state.requests, route);
  return { ...served, state };
}
export type ConfigMapsPeer = Awaited<ReturnType<typeof startConfigMapsPeer>>;

/** Sends /api/config-maps to the config maps peer, everything else on as before. */
export function forwardConfigMaps(peer: ConfigMapsPeer): () => void {
  return forwardPaths(peer.origin, /^\/api\/config-maps(\/|$)/);
}
