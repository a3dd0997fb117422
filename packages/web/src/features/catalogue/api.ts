import type { TaskTemplate, TaskTemplateCreate, TaskTemplateUpdate } from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';
import { pipelinesApi, type PipelineTypes } from '../pipelines/api';

/** The catalogue: pipeline templates (`/api/templates`) and task templates (`/api/tasks`). */
export const catalogueApi = api
  .enhanceEndpoints({ addTagTypes: ['PipelineTemplate', 'TaskTemplate'] })
  .injectEndpoints({
    endpoints: (build) => ({
      ...resourceEndpoints<PipelineTypes>()(build, {
        name: 'pipelineTemplate',
        url: 'templates',
        ops: ['list', 'get', 'create', 'update', 'delete'],
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
  useTaskTemplatesQuery,
  useCreateTaskTemplateMutation,
  useUpdateTaskTemplateMutation,
  useDeleteTaskTemplateMutation,
} = catalogueApi;

/** A new pipeline from a template (`POST /api/templates/:id/instantiate`): the run dialog's endpoint. */
export const useInstantiatePipelineTemplateMutation = pipelinesApi.useInstantiateTemplateMutation;
