import type {
  ExternalPipeline,
  ExternalPipelineCreate,
  ExternalPipelineSync,
  ExternalPipelineUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

const LIST = { type: 'ExternalPipeline' as const, id: 'LIST' };
/** An external pipeline is a pipeline too: the pipelines list and its page change with it. */
const PIPELINES = { type: 'Pipeline' as const, id: 'LIST' };

/** External pipelines (`/api/external-pipelines`): pipelines whose definition is read from git. */
export const externalPipelinesApi = api
  .enhanceEndpoints({ addTagTypes: ['ExternalPipeline', 'Pipeline'] })
  .injectEndpoints({
    endpoints: (build) => ({
      ...resourceEndpoints<{ row: ExternalPipeline }>()(build, {
        name: 'externalPipeline',
        url: 'external-pipelines',
        ops: ['list'],
      }),
      externalPipeline: build.query<ExternalPipeline, string>({
        query: (id) => `external-pipelines/${encodeURIComponent(id)}`,
        // a sync, edit or delete anywhere refreshes it
        providesTags: (_r, _e, id) => [LIST, { type: 'ExternalPipeline', id }],
      }),
      createExternalPipeline: build.mutation<ExternalPipeline, ExternalPipelineCreate>({
        query: (body) => ({ url: 'external-pipelines', method: 'POST', body }),
        invalidatesTags: [LIST, PIPELINES],
      }),
      updateExternalPipeline: build.mutation<ExternalPipeline, { id: string; body: ExternalPipelineUpdate }>({
        query: ({ id, body }) => ({
          url: `external-pipelines/${encodeURIComponent(id)}`,
          method: 'PUT',
          body,
        }),
        invalidatesTags: (_r, _e, { id }) => [LIST, PIPELINES, { type: 'Pipeline', id }],
      }),
      syncExternalPipeline: build.mutation<ExternalPipelineSync, string>({
        query: (id) => ({
          url: `external-pipelines/${encodeURIComponent(id)}/sync`,
          method: 'POST',
          body: {},
        }),
        invalidatesTags: (_r, _e, id) => [LIST, PIPELINES, { type: 'Pipeline', id }],
      }),
      deleteExternalPipeline: build.mutation<void, string>({
        query: (id) => ({ url: `external-pipelines/${encodeURIComponent(id)}`, method: 'DELETE' }),
        invalidatesTags: [LIST, PIPELINES],
      }),
    }),
  });

export const {
  useExternalPipelinesQuery,
  useExternalPipelineQuery,
  useCreateExternalPipelineMutation,
  useUpdateExternalPipelineMutation,
  useSyncExternalPipelineMutation,
  useDeleteExternalPipelineMutation,
} = externalPipelinesApi;
