import type {
  DeployToken,
  DeployTokenCreate,
  DeployTokenCreated,
  Repository,
  RepositoryCreate,
  RepositoryDetail,
  RepositoryUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';
import { resourceEndpoints } from '../../app/resource-endpoints';

const BASE = 'admin/repository';
const one = (id: string) => `${BASE}/${encodeURIComponent(id)}`;
const LIST = { type: 'Repository', id: 'LIST' } as const;
/** What a new repository changes: the lists, quick setup's choice of repositories among them. */
const LISTS = [LIST, { type: 'QuickSetupRepository', id: 'LIST' } as const];

/**
 * The workspace's repositories (`/api/admin/repository`, spec §7) and a hosted one's deploy
 * tokens. The list shares its cache tag with the application wizard's repository choice
 * (`applications/api.ts`), so a repository made here shows there.
 */
export const repositoriesApi = api
  .enhanceEndpoints({ addTagTypes: ['Repository', 'DeployToken', 'QuickSetupRepository', 'Application'] })
  .injectEndpoints({
    endpoints: (build) => ({
      // a page of the list (spec query: _start, _end, _sort, _order, name, repository_type_id)
      repositoryPage: build.query<Page<Repository>, Record<string, string>>({
        query: (params) => ({ url: BASE, params }),
        transformResponse: (rows: Repository[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
        providesTags: [LIST],
      }),
      ...resourceEndpoints<{ row: Repository; detail: RepositoryDetail; update: RepositoryUpdate }>()(build, {
        name: 'repository',
        url: BASE,
        ops: ['get', 'update'],
      }),
      createRepository: build.mutation<RepositoryDetail, RepositoryCreate>({
        query: (body) => ({ url: BASE, method: 'POST', body }),
        invalidatesTags: LISTS,
      }),
      deleteRepository: build.mutation<void, string>({
        query: (id) => ({ url: one(id), method: 'DELETE' }),
        // and the applications: one that built from it has no repository any more
        invalidatesTags: [...LISTS, 'Application'],
      }),
      deployTokens: build.query<DeployToken[], string>({
        query: (id) => `${one(id)}/deploy-tokens`,
        providesTags: (_r, _e, id) => [{ type: 'DeployToken', id }],
      }),
      createDeployToken: build.mutation<DeployTokenCreated, { id: string; body: DeployTokenCreate }>({
        query: ({ id, body }) => ({ url: `${one(id)}/deploy-tokens`, method: 'POST', body }),
        invalidatesTags: (_r, _e, { id }) => [{ type: 'DeployToken', id }],
      }),
      revokeDeployToken: build.mutation<void, { id: string; tokenId: string }>({
        query: ({ id, tokenId }) => ({
          url: `${one(id)}/deploy-tokens/${encodeURIComponent(tokenId)}`,
          method: 'DELETE',
        }),
        invalidatesTags: (_r, _e, { id }) => [{ type: 'DeployToken', id }],
      }),
    }),
  });

export const {
  useRepositoryPageQuery,
  useRepositoryQuery,
  useCreateRepositoryMutation,
  useUpdateRepositoryMutation,
  useDeleteRepositoryMutation,
  useDeployTokensQuery,
  useCreateDeployTokenMutation,
  useRevokeDeployTokenMutation,
} = repositoriesApi;

/** Whether a deploy token still opens the repository, ran out, or was revoked. */
export type DeployTokenStatus = 'active' | 'expired' | 'revoked';
export function deployTokenStatus(token: DeployToken, now = Date.now()): DeployTokenStatus {
  if (token.revokedAt) return 'revoked';
  return new Date(token.expiresAt).getTime() <= now ? 'expired' : 'active';
}
