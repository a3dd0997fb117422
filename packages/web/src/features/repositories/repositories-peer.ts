import { randomUUID } from 'node:crypto';
import {
  DEPLOY_TOKEN_PREFIX,
  deployTokenCreateSchema,
  repositoryCreateSchema,
  repositoryUpdateSchema,
  type DeployToken,
  type RepositoryDetail,
} from '@slipway/contracts';
import { fail, forwardPaths, invalid, page, serveRoutes, type Reply } from '../../test/route-peer';

/**
 * A loopback HTTP peer for the repositories pages (test only): `/api/admin/repository` with the
 * spec's list query (`name`, `repository_type_id`, paging, sort), one repository with its
 * branches, and a hosted one's deploy tokens, kept in memory and validated with the contracts'
 * schemas. The shared test peer answers only the list; `forwardRepositories` sends these paths here.
 */
const AT = '2026-05-01T10:00:00.000Z';
const ORIGIN = 'http://127.0.0.1:8080';

export function sampleRepositoryDetail(patch: Partial<RepositoryDetail> = {}): RepositoryDetail {
  const name = patch.name ?? 'orders';
  return {
    id: 'repo-1',
    name,
    description: '',
    kind: 'hosted',
    url: `${ORIGIN}/git/ws-1/${name}.git`,
    defaultBranch: 'main',
    lastPushAt: null,
    createdAt: AT,
    updatedAt: AT,
    branches: [],
    ...patch,
  };
}

export function sampleDeployToken(patch: Partial<DeployToken> = {}): DeployToken {
  return {
    id: 'tok-1',
    name: 'ci-read',
    access: 'read',
    expiresAt: '2099-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
    createdAt: AT,
    ...patch,
  };
}

export async function startRepositoriesPeer() {
  const state = {
    repositories: [] as RepositoryDetail[],
    /** deploy tokens by repository id */
    tokens: new Map<string, DeployToken[]>(),
    /** answer the list with a 500 this many times first */
    listFailures: 0,
    requests: [] as { method: string; path: string; body: unknown }[],
    /** the query of each list request */
    listQueries: [] as Record<string, string>[],
  };
  const summary = ({ branches: _b, ...r }: RepositoryDetail) => r;

  function route(method: string, path: string, query: URLSearchParams, body: unknown): Reply {
    const [, , , , id, sub, tokenId] = path.split('/'); // '', api, admin, repository, :id, deploy-tokens, :tokenId
    if (!id) {
      if (method === 'GET') {
        state.listQueries.push(Object.fromEntries(query));
        if (state.listFailures > 0) {
          state.listFailures -= 1;
          return fail(500, 'Something broke');
        }
        const name = query.get('name')?.toLowerCase();
        const kind = query.get('repository_type_id');
        const rows = state.repositories
          .filter((r) => (!name || r.name.includes(name)) && (!kind || r.kind === kind))
          .map(summary);
        return page(rows, query);
      }
      if (method === 'POST') {
        const p = repositoryCreateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        if (state.repositories.some((r) => r.name === p.data.name))
          return fail(409, 'A repository with this name already exists');
        if (p.data.url?.startsWith('file:'))
          return fail(400, 'url: file URLs are not allowed', [
            { path: 'body.url', message: 'file URLs are not allowed' },
          ]);
        const { url, ...fields } = p.data;
        const created = sampleRepositoryDetail({
          ...fields,
          id: randomUUID(),
          url: p.data.kind === 'hosted' ? `${ORIGIN}/git/ws-1/${p.data.name}.git` : url!,
        });
        state.repositories.push(created);
        return [201, created];
      }
    }
    const repo = state.repositories.find((r) => r.id === id);
    if (!repo) return fail(404, 'Repository not found');
    if (!sub) {
      if (method === 'GET') return [200, repo];
      if (method === 'PUT') {
        const p = repositoryUpdateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        Object.assign(repo, Object.fromEntries(Object.entries(p.data).filter(([, v]) => v !== undefined)));
        return [200, repo];
      }
      if (method === 'DELETE') {
        state.repositories = state.repositories.filter((r) => r !== repo);
        state.tokens.delete(repo.id);
        return [204];
      }
    }
    if (sub === 'deploy-tokens') {
      if (repo.kind !== 'hosted') return fail(400, 'Deploy tokens are for hosted repositories');
      const tokens = state.tokens.get(repo.id) ?? [];
      state.tokens.set(repo.id, tokens);
      if (method === 'GET' && !tokenId) return [200, tokens];
      if (method === 'POST' && !tokenId) {
        const p = deployTokenCreateSchema.safeParse(body);
        if (!p.success) return invalid(p.error);
        const made = sampleDeployToken({
          id: randomUUID(),
          name: p.data.name,
          access: p.data.access,
          expiresAt: new Date(Date.now() + p.data.expiresInDays * 86_400_000).toISOString(),
        });
        tokens.unshift(made);
        return [201, { ...made, token: `${DEPLOY_TOKEN_PREFIX}${randomUUID().replaceAll('-', '')}` }];
      }
      const token = tokens.find((x) => x.id === tokenId && !x.revokedAt);
      if (method === 'DELETE' && token) {
        token.revokedAt = AT;
        return [204];
      }
      return fail(404, 'Deploy token not found');
    }
    return fail(404, `No route ${method} ${path}`);
  }

  const served = await serveRoutes(state.requests, route);
  return { ...served, state };
}
export type RepositoriesPeer = Awaited<ReturnType<typeof startRepositoriesPeer>>;

/** Sends /api/admin/repository and what is under it to the repositories peer, the rest on as before. */
export function forwardRepositories(peer: RepositoriesPeer): () => void {
  return forwardPaths(peer.origin, /^\/api\/admin\/repository(\/|$)/);
}
