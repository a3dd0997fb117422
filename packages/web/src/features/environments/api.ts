import type {
  Environment,
  EnvironmentCreate,
  EnvironmentDetail,
  EnvironmentUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

const path = (id: string) => `environments/${encodeURIComponent(id)}`;

/** Environments (`/api/environments`) and what is deployed in them. */
export const environmentsApi = api.enhanceEndpoints({ addTagTypes: ['Environment'] }).injectEndpoints({
  endpoints: (build) => ({
    environments: build.query<Page<Environment>, Record<string, string>>({
      query: (params) => ({ url: 'environments', params }),
      transformResponse: (rows: Environment[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      providesTags: [{ type: 'Environment', id: 'LIST' }],
    }),
    environment: build.query<EnvironmentDetail, string>({
      query: (id) => path(id),
      providesTags: (_r, _e, id) => [{ type: 'Environment', id }],
    }),
    createEnvironment: build.mutation<EnvironmentDetail, EnvironmentCreate>({
      query: (body) => ({ url: 'environments', method: 'POST', body }),
      invalidatesTags: [{ type: 'Environment', id: 'LIST' }],
    }),
    updateEnvironment: build.mutation<EnvironmentDetail, { id: string; body: EnvironmentUpdate }>({
      query: ({ id, body }) => ({ url: path(id), method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'Environment', id },
        { type: 'Environment', id: 'LIST' },
      ],
    }),
    deleteEnvironment: build.mutation<void, string>({
      query: (id) => ({ url: path(id), method: 'DELETE' }),
      invalidatesTags: [{ type: 'Environment', id: 'LIST' }],
    }),
  }),
});

export const {
  useEnvironmentsQuery,
  useEnvironmentQuery,
  useCreateEnvironmentMutation,
  useUpdateEnvironmentMutation,
  useDeleteEnvironmentMutation,
} = environmentsApi;
