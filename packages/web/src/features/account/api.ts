import type { LoginResponse, Organisation, Workspace } from '@slipway/contracts';
import { api } from '../../app/api';

interface Rename {
  id: string;
  name: string;
}

/** The request that renames the row `id` of a collection (`PUT <collection>/<id>` with its new name). */
const renameAt =
  (collection: string) =>
  ({ id, name }: Rename) => ({
    url: `${collection}/${encodeURIComponent(id)}`,
    method: 'PUT',
    body: { name },
  });

/** Organisations I belong to (account switch, rename) and the workspaces of the current one. */
export const accountApi = api
  .enhanceEndpoints({ addTagTypes: ['Organisations', 'Workspaces', 'Profile', 'Permissions'] })
  .injectEndpoints({
    endpoints: (build) => ({
      organisations: build.query<Organisation[], void>({
        query: () => 'organisations',
        providesTags: ['Organisations'],
      }),
      switchOrganisation: build.mutation<LoginResponse, string>({
        query: (id) => ({ url: `organisations/${encodeURIComponent(id)}/switch`, method: 'POST' }),
      }),
      renameOrganisation: build.mutation<Organisation, Rename>({
        query: renameAt('organisations'),
        invalidatesTags: ['Organisations', 'Profile'],
      }),
      /** The current organisation's cap on a run's duration (null: none); organisation admins only. */
      updateOrganisation: build.mutation<Organisation, { id: string; maxRunMinutes: number | null }>({
        query: ({ id, maxRunMinutes }) => ({
          url: `organisations/${encodeURIComponent(id)}`,
          method: 'PUT',
          body: { maxRunMinutes },
        }),
        invalidatesTags: ['Organisations'],
      }),
      workspaces: build.query<Workspace[], void>({
        query: () => 'workspaces',
        providesTags: ['Workspaces'],
      }),
      createWorkspace: build.mutation<Workspace, { name: string }>({
        query: (body) => ({ url: 'workspaces', method: 'POST', body }),
        invalidatesTags: ['Workspaces', 'Profile'],
      }),
      renameWorkspace: build.mutation<Workspace, Rename>({
        query: renameAt('workspaces'),
        invalidatesTags: ['Workspaces', 'Profile'],
      }),
      deleteWorkspace: build.mutation<void, string>({
        query: (id) => ({ url: `workspaces/${encodeURIComponent(id)}`, method: 'DELETE' }),
        invalidatesTags: ['Workspaces', 'Profile', 'Permissions'],
      }),
    }),
  });

export const {
  useOrganisationsQuery,
  useSwitchOrganisationMutation,
  useRenameOrganisationMutation,
  useUpdateOrganisationMutation,
  useWorkspacesQuery,
  useCreateWorkspaceMutation,
  useRenameWorkspaceMutation,
  useDeleteWorkspaceMutation,
} = accountApi;
