import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createPipelineRunSchema,
  idParamsSchema,
  PIPELINE_RUN_PATHS,
  pipelineRunDetailSchema,
  pipelineRunListQuerySchema,
  pipelineRunListSchema,
  pipelineRunLogsQuerySchema,
  pipelineRunSchema,
  TOTAL_COUNT_HEADER,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import type { PipelineRunsService } from './pipeline-runs-service.js';

const tags = ['pipeline runs'];
const base = `/api/${PIPELINE_RUN_PATHS.pipelineruns}`;

export function pipelineRunsRoutes(service: PipelineRunsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      base,
      {
        config: { access: inWorkspace('pipelines:execute'), auditAction: 'pipeline_run.create' },
        schema: {
          tags,
          summary: 'Start a run of a pipeline (queued; the engine picks it up)',
          body: createPipelineRunSchema,
          response: { 201: pipelineRunSchema },
        },
      },
      async (request, reply) => {
        request.audit.targetType = 'pipeline_run';
        const run = await service.create(request.workspaceId!, request.body);
        request.audit.targetId = run.id;
        request.audit.detail = { pipelineId: run.pipelineId, number: run.number };
        return reply.code(201).send(run);
      },
    );
    app.get(
      base,
      {
        config: { access: inWorkspace('pipelines:view') },
        schema: {
          tags,
          summary: 'Runs of the workspace, filtered by status and pipeline; X-Total-Count has the total',
          querystring: pipelineRunListQuerySchema,
          response: { 200: pipelineRunListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return rows;
      },
    );
    app.get(
      `${base}/:id`,
      {
        config: { access: inWorkspace('pipelines:view') },
        schema: {
          tags,
          summary: 'A run with its timing, queue position, params, results, task runs and step runs',
          params: idParamsSchema,
          response: { 200: pipelineRunDetailSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    const actions = [
      ['rerun', 'pipeline_run.rerun', 201, 'Run again with the same params'],
      ['abort', 'pipeline_run.abort', 200, 'Stop a pending or running run'],
      [
        'rollback',
        'pipeline_run.rollback',
        201,
        "Run the pipeline's rollback pipeline with the last good params",
      ],
    ] as const;
    for (const [action, auditAction, code, summary] of actions)
      app.post(
        `${base}/:id/${action}`,
        {
          config: { access: inWorkspace('pipelines:execute'), auditAction },
          schema: { tags, summary, params: idParamsSchema, response: { [code]: pipelineRunSchema } },
        },
        async (request, reply) => {
          request.audit.targetType = 'pipeline_run';
          request.audit.targetId = request.params.id;
          const run = await service[action](request.workspaceId!, request.params.id);
          return reply.code(code).send(run);
        },
      );
    app.get(
      `${base}/:id/${PIPELINE_RUN_PATHS.logging}`,
      {
        config: { access: inWorkspace('pipelines:view') },
        schema: {
          tags,
          summary: 'Stored log lines as plain text, by task and step, from a line offset',
          params: idParamsSchema,
          querystring: pipelineRunLogsQuerySchema,
        },
      },
      async (request, reply) => {
        const { text, next } = await service.logs(request.workspaceId!, request.params.id, request.query);
        return reply.type('text/plain; charset=utf-8').header('x-next-offset', String(next)).send(text);
      },
    );
  };
}
