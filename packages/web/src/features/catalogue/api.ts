import {
  type PipelineDetail,
  type TaskTemplate,
  type TaskTemplateCreate,
  type TaskTemplateUpdate,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';
import type { PipelineTypes } from '../pipelines/api';

/** The catalogue: pipeline templates (`/api/templates`) and task templates (`/api/tasks`). */
export const catalogueApi = api
  .enhanceEndpoints({ addTagTypes: ['PipelineTemplate', 'TaskTemplate', 'Pipeline'] })
  .injectEndpoints({
    endpoints: (build) => ({
      ...resourceEndpoints<PipelineTypes>()(build, {
        name: 'pipelineTemplate',
        url: 'templates',
        ops: ['list', 'get', 'create', 'update', 'delete'],
      }),
      instantiatePipelineTemplate: build.mutation<PipelineDetail, { id: string; name: string }>({
        query: ({ id, name }) => ({
          url: `templates/${encodeURIComponent(id)}/instantiate`,
          method: 'POST',
          body: { name },
        }),
        invalidatesTags: [{ type: 'Pipeline', id: 'LIST' }],
      }),
      ...resourceEndpoints<{ row: TaskTemplate; create: TaskTemplateCreate; update: TaskTemplateUpdate }>()(
        build,
        { name: 'taskTemplate', url: 'tasks', ops: ['all', 'create', 'update', 'delete'] },
      ),
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
