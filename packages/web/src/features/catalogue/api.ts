import {
  type PipelineCreate,
  type PipelineDetail,
  type PipelineSummary,
  type PipelineUpdate,
  type TaskTemplate,
  type TaskTemplateCreate,
  type TaskTemplateUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';

/** The catalogue: pipeline templates (`/api/templates`) and task templates (`/api/tasks`). */
export const catalogueApi = api
  .enhanceEndpoints({ addTagTypes: ['PipelineTemplate', 'TaskTemplate', 'Pipeline'] })
  .injectEndpoints({
    endpoints: (build) => ({
      pipelineTemplates: build.query<Page<PipelineSummary>, Record<string, string>>({
        query: (params) => ({ url: 'templates', params }),
        transformResponse: (rows: PipelineSummary[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
        providesTags: [{ type: 'PipelineTemplate', id: 'LIST' }],
      }),
      pipelineTemplate: build.query<PipelineDetail, string>({
        query: (id) => `templates/${encodeURIComponent(id)}`,
        providesTags: (_r, _e, id) => [{ type: 'PipelineTemplate', id }],
      }),
      createPipelineTemplate: build.mutation<PipelineDetail, PipelineCreate>({
        query: (body) => ({ url: 'templates', method: 'POST', body }),
        invalidatesTags: [{ type: 'PipelineTemplate', id: 'LIST' }],
      }),
      updatePipelineTemplate: build.mutation<PipelineDetail, { id: string; body: PipelineUpdate }>({
        query: ({ id, body }) => ({ url: `templates/${encodeURIComponent(id)}`, method: 'PUT', body }),
        invalidatesTags: (_r, _e, { id }) => [
          { type: 'PipelineTemplate', id },
          { type: 'PipelineTemplate', id: 'LIST' },
        ],
      }),
      deletePipelineTemplate: build.mutation<void, string>({
        query: (id) => ({ url: `templates/${encodeURIComponent(id)}`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'PipelineTemplate', id: 'LIST' }],
      }),
      instantiatePipelineTemplate: build.mutation<PipelineDetail, { id: string; name: string }>({
        query: ({ id, name }) => ({
          url: `templates/${encodeURIComponent(id)}/instantiate`,
          method: 'POST',
          body: { name },
        }),
        invalidatesTags: [{ type: 'Pipeline', id: 'LIST' }],
      }),
      taskTemplates: build.query<TaskTemplate[], void>({
        query: () => 'tasks',
        providesTags: [{ type: 'TaskTemplate', id: 'LIST' }],
      }),
      createTaskTemplate: build.mutation<TaskTemplate, TaskTemplateCreate>({
        query: (body) => ({ url: 'tasks', method: 'POST', body }),
        invalidatesTags: [{ type: 'TaskTemplate', id: 'LIST' }],
      }),
      updateTaskTemplate: build.mutation<TaskTemplate, { id: string; body: TaskTemplateUpdate }>({
        query: ({ id, body }) => ({ url: `tasks/${encodeURIComponent(id)}`, method: 'PUT', body }),
        invalidatesTags: [{ type: 'TaskTemplate', id: 'LIST' }],
      }),
      deleteTaskTemplate: build.mutation<void, string>({
        query: (id) => ({ url: `tasks/${encodeURIComponent(id)}`, method: 'DELETE' }),
        invalidatesTags: [{ type: 'TaskTemplate', id: 'LIST' }],
      }),
    }),
  });

export const {
  usePipelineTemplatesQuery,
  useLazyPipelineTemplateQuery,
  useCreatePipelineTemplateMutation,
  useUpdatePipelineTemplateMutation,
  useDeletePipelineTemplateMutation,
  useInstantiatePipelineTemplateMutation,
  useTaskTemplatesQuery,
  useCreateTaskTemplateMutation,
  useUpdateTaskTemplateMutation,
  useDeleteTaskTemplateMutation,
} = catalogueApi;
