import type { FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import {
  FINISHED_RUN_STATUSES,
  type Cluster,
  type CreatePipelineRunRequest,
  type PipelineCreate,
  type PipelineDetail,
  type PipelineRunDetail,
  type PipelineRunStatus,
  type PipelineRunView,
  type PipelineSummary,
  type PipelineUpdate,
  type PipelineVersion,
} from '@slipway/contracts';
import { api } from '../../app/api';
import { totalOf, type Page } from '../../app/page';
import { resourceEndpoints } from '../../app/resource-endpoints';

export interface RunLogsArgs {
  id: string;
  task?: string;
  step?: string;
  offset: number;
}

export interface RunLogsChunk {
  text: string;
  /** the line offset to ask from next time (x-next-offset) */
  next: number;
}

/** What the pipeline endpoints carry (a pipeline template's carry the same). */
export interface PipelineTypes {
  row: PipelineSummary;
  detail: PipelineDetail;
  create: PipelineCreate;
  update: PipelineUpdate;
}

/** Whether a run has reached an end state (no more polling). */
export function isFinished(status: PipelineRunStatus): boolean {
  return FINISHED_RUN_STATUSES.includes(status);
}

/** Pipelines (`/api/pipelines`) and their runs (`/api/pipelineruns`). */
export const pipelinesApi = api
  .enhanceEndpoints({ addTagTypes: ['Pipeline', 'PipelineRun'] })
  .injectEndpoints({
    endpoints: (build) => ({
      ...resourceEndpoints<PipelineTypes>()(build, {
        name: 'pipeline',
        url: 'pipelines',
        ops: ['list', 'get', 'create', 'update', 'delete'],
      }),
      /** one saved version of a pipeline's definition (a version never changes once saved) */
      pipelineVersion: build.query<PipelineVersion, { id: string; version: number }>({
        query: ({ id, version }) => `pipelines/${encodeURIComponent(id)}/versions/${version}`,
      }),
      /** pipeline templates, for the initiate-run panel's template choice */
      runTemplates: build.query<Page<PipelineSummary>, void>({
        query: () => ({ url: 'templates', params: { _start: '0', _end: '100' } }),
        transformResponse: (rows: PipelineSummary[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      }),
      runTemplate: build.query<PipelineDetail, string>({
        query: (id) => `templates/${encodeURIComponent(id)}`,
      }),
      instantiateTemplate: build.mutation<PipelineDetail, { id: string; name: string }>({
        query: ({ id, name }) => ({
          url: `templates/${encodeURIComponent(id)}/instantiate`,
          method: 'POST',
          body: { name },
        }),
        invalidatesTags: [{ type: 'Pipeline', id: 'LIST' }],
      }),
      /** the initiate-run panel's prerequisites: the workspace's clusters */
      runClusters: build.query<Page<Cluster>, void>({
        query: () => ({ url: 'clusters', params: { _start: '0', _end: '20' } }),
        transformResponse: (rows: Cluster[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
      }),
      runs: build.query<Page<PipelineRunView>, Record<string, string>>({
        query: (params) => ({ url: 'pipelineruns', params }),
        transformResponse: (rows: PipelineRunView[], meta) => ({ rows, total: totalOf(meta, rows.length) }),
        providesTags: [{ type: 'PipelineRun', id: 'LIST' }],
      }),
      run: build.query<PipelineRunDetail, string>({
        query: (id) => `pipelineruns/${encodeURIComponent(id)}`,
        providesTags: (_r, _e, id) => [{ type: 'PipelineRun', id }],
      }),
      startRun: build.mutation<PipelineRunView, Partial<CreatePipelineRunRequest> & { pipelineId: string }>({
        query: (body) => ({ url: 'pipelineruns', method: 'POST', body }),
        invalidatesTags: [{ type: 'PipelineRun', id: 'LIST' }],
      }),
      /** a run from a pasted Tekton PipelineRun or TaskRun (YAML or JSON text), as kubectl create -f */
      startRunFromDocument: build.mutation<PipelineRunView, { text: string }>({
        query: ({ text }) => ({
          url: 'pipelineruns',
          method: 'POST',
          body: text,
          headers: { 'content-type': 'application/yaml' },
        }),
        invalidatesTags: [{ type: 'PipelineRun', id: 'LIST' }],
      }),
      /** a run as a Tekton v1 PipelineRun: a run document's page reads the pipeline it ran from it */
      runExport: build.query<{ spec?: { pipelineSpec?: unknown } }, string>({
        query: (id) => `pipelineruns/${encodeURIComponent(id)}/export`,
      }),
      runAction: build.mutation<PipelineRunView, { id: string; action: 'rerun' | 'abort' | 'rollback' }>({
        query: ({ id, action }) => ({
          url: `pipelineruns/${encodeURIComponent(id)}/${action}`,
          method: 'POST',
        }),
        invalidatesTags: (_r, _e, { id }) => [
          { type: 'PipelineRun', id },
          { type: 'PipelineRun', id: 'LIST' },
        ],
      }),
      runLogs: build.query<RunLogsChunk, RunLogsArgs>({
        query: ({ id, task, step, offset }) => ({
          url: `pipelineruns/${encodeURIComponent(id)}/logs`,
          params: { ...(task ? { task } : {}), ...(step ? { step } : {}), offset: String(offset) },
          responseHandler: 'text',
        }),
        transformResponse: (text: string, meta, { offset }) => {
          const next = (meta as FetchBaseQueryMeta | undefined)?.response?.headers.get('x-next-offset');
          return { text, next: next ? Number(next) : offset };
        },
        keepUnusedDataFor: 0,
      }),
    }),
  });

export const {
  usePipelinesQuery,
  usePipelineQuery,
  usePipelineVersionQuery,
  useLazyPipelineVersionQuery,
  useCreatePipelineMutation,
  useUpdatePipelineMutation,
  useDeletePipelineMutation,
  useRunsQuery,
  useRunTemplatesQuery,
  useRunTemplateQuery,
  useInstantiateTemplateMutation,
  useRunClustersQuery,
  useRunQuery,
  useStartRunMutation,
  useStartRunFromDocumentMutation,
  useRunExportQuery,
  useRunActionMutation,
  useLazyRunLogsQuery,
} = pipelinesApi;
