import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createPipelineRunSchema,
  idParamsSchema,
  LOG_STREAM_PATH,
  logSearchResultSchema,
  logStreamQuerySchema,
  PIPELINE_RUN_PATHS,
  pipelineRunDetailSchema,
  pipelineRunListQuerySchema,
  pipelineRunListSchema,
  pipelineRunLogSearchQuerySchema,
  pipelineRunLogsDownloadSchema,
  pipelineRunLogsQuerySchema,
  pipelineRunSchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { LogHub } from './logs/log-hub.js';
import { LogStream, type LogStreamSource } from './logs/log-stream.js';
import type { PipelineRunsService } from './pipeline-runs-service.js';

const tags = ['pipeline runs'];
const base = `/api/${PIPELINE_RUN_PATHS.pipelineruns}`;

/** What the live log socket needs; without it the socket route is not registered. */
export interface LiveLogs {
  hub: LogHub;
  source: LogStreamSource;
  onError?: (error: unknown) => void;
  /** How often a socket re-reads the run whatever the events say (see LogStreamOptions.pollMs). */
  pollMs?: number;
}

export function pipelineRunsRoutes(service: PipelineRunsService, live?: LiveLogs): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      base,
      {
        config: {
          access: inWorkspace('pipelines:execute'),
          auditAction: 'pipeline_run.create',
          auditTarget: { type: 'pipeline_run', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Start a run of a pipeline (queued; the engine picks it up)',
          body: createPipelineRunSchema,
          response: { 201: pipelineRunSchema },
        },
      },
      async (request, reply) => {
        const run = await service.create(request.workspaceId!, request.body);
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
        return withTotalCount(reply, rows, total);
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
          config: {
            access: inWorkspace('pipelines:execute'),
            auditAction,
            auditTarget: { type: 'pipeline_run', id: 'params.id' },
          },
          schema: { tags, summary, params: idParamsSchema, response: { [code]: pipelineRunSchema } },
        },
        async (request, reply) => {
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
          summary:
            'Stored log lines as plain text, by task and step, from a line offset; download=1 sends them as a file',
          params: idParamsSchema,
          querystring: pipelineRunLogsQuerySchema.extend(pipelineRunLogsDownloadSchema.shape),
        },
      },
      async (request, reply) => {
        const { download, ...query } = request.query;
        if (download) {
          const file = await service.download(request.workspaceId!, request.params.id, query);
          return reply
            .type('text/plain; charset=utf-8')
            .header('content-disposition', `attachment; filename="${file.fileName}"`)
            .send(file.body);
        }
        const { text, next } = await service.logs(request.workspaceId!, request.params.id, query);
        return reply.type('text/plain; charset=utf-8').header('x-next-offset', String(next)).send(text);
      },
    );
    app.get(
      `${base}/:id/${PIPELINE_RUN_PATHS.logging}/search`,
      {
        config: { access: inWorkspace('pipelines:view') },
        schema: {
          tags,
          summary:
            'Log lines of the run containing q (case-insensitive, ANSI escapes ignored) with task, step and line number; X-Total-Count has the number of matches',
          params: idParamsSchema,
          querystring: pipelineRunLogSearchQuerySchema,
          response: { 200: logSearchResultSchema },
        },
      },
      async (request, reply) => {
        const { matches, total } = await service.searchLogs(
          request.workspaceId!,
          request.params.id,
          request.query,
        );
        return withTotalCount(reply, matches, total);
      },
    );
    if (live)
      app.get(
        `/api/ws/${LOG_STREAM_PATH}/:id/${PIPELINE_RUN_PATHS.logging}`,
        {
          websocket: true,
          config: { access: inWorkspace('pipelines:view') },
          schema: {
            tags,
            summary:
              'WebSocket: the log from an offset, then live lines, then an end frame (frames: logStreamFrameSchema). Credentials may come as Sec-WebSocket-Protocol entries',
            params: idParamsSchema,
            querystring: logStreamQuerySchema,
          },
          preHandler: async (request) => service.exists(request.workspaceId!, request.params.id),
        },
        (socket, request) => {
          const stream = new LogStream(live.source, live.hub, socket, request.params.id, {
            ...request.query,
            onError: live.onError,
            ...(live.pollMs ? { pollMs: live.pollMs } : {}),
          });
          socket.on('close', () => stream.stop());
          void stream.start();
        },
      );
  };
}
