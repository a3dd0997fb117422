import type { ConfigMap, ConfigMapCreate, ConfigMapUpdate } from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

/** Config maps (`/api/config-maps`): plain key → value sets that pipeline steps read. */
export const configMapsApi = api.enhanceEndpoints({ addTagTypes: ['ConfigMap'] }).injectEndpoints({
  endpoints: (build) => ({
    configMaps: build.query<Page<ConfigMap>, Record<string, string>>({
      query: (params) => ({ url: 'config-maps', params }),
      transformResponse: (rows: ConfigMap[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      providesTags: [{ type: 'ConfigMap', id: 'LIST' }],
    }),
    createConfigMap: build.mutation<ConfigMap, ConfigMapCreate>({
      query: (body) => ({ url: 'config-maps', method: 'POST', body }),
      invalidatesTags: [{ type: 'ConfigMap', id: 'LIST' }],
    }),
    updateConfigMap: build.mutation<ConfigMap, { id: string; body: ConfigMapUpdate }>({
      query: ({ id, body }) => ({ url: `config-maps/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [{ type: 'ConfigMap', id: 'LIST' }],
    }),
    deleteConfigMap: build.mutation<void, string>({
      query: (id) => ({ url: `config-maps/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'ConfigMap', id: 'LIST' }],
    }),
  }),
});

export const {
  useConfigMapsQuery,
  useCreateConfigMapMutation,
  useUpdateConfigMapMutation,
  useDeleteConfigMapMutation,
} = configMapsApi;
