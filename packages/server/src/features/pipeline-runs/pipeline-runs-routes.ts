import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { stringify } from 'yaml';
import {
  createPipelineRunBodySchema,
  type CreatePipelineRunRequest,
  createPipelineRunQuerySchema,
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
  pipelineRunExportQuerySchema,
  pipelineRunSchema,
  RUN_DOCUMENT_YAML_TYPES,
} from '@slipway/contracts';
import { actorIdOf, actorLabelOf, inWorkspace } from '../../platform/auth/principal.js';
import { InputError } from '../../platform/errors.js';
import { routes } from '../../platform/routes.js';
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
    // a Tekton run document may come as YAML text (this plugin's routes only)
    app.addContentTypeParser([...RUN_DOCUMENT_YAML_TYPES], { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    const runs = routes(app, tags);
    runs.post(base, {
      summary:
        "Start a run of a pipeline (queued; the engine picks it up): the API's own body, or a Tekton v1 PipelineRun or TaskRun document (JSON, or YAML as application/yaml), as kubectl create -f takes it",
      access: inWorkspace('pipelines:execute'),
      auditAction: 'pipeline_run.create',
      auditTarget: { type: 'pipeline_run', id: 'response.id' },
      querystring: createPipelineRunQuerySchema,
      body: createPipelineRunBodySchema,
      response: pipelineRunSchema,
      status: 201,
      handler: async (request) => {
        const p = request.principal;
        const trigger = { kind: 'user', id: actorIdOf(p), by: actorLabelOf(p) };
        const body = request.body;
        if (!('document' in body) && request.query.environmentId)
          throw new InputError(
            'environmentId: give it in the body (the query parameter is for a Tekton document)',
            [
              {
                path: 'querystring.environmentId',
                message: 'give it in the body (the query parameter is for a Tekton document)',
              },
            ],
          );
        const run =
          'document' in body
            ? await service.createFromDocument(
                request.workspaceId!,
                (body as { document: string | object }).document,
                { environmentId: request.query.environmentId, createdBy: actorIdOf(p) },
                trigger,
              )
            : await service.create(request.workspaceId!, body as CreatePipelineRunRequest, trigger);
        request.audit.detail = {
          pipelineId: run.pipelineId,
          number: run.number,
          ...('document' in body ? { name: run.name, from: 'document' } : {}),
        };
        return run;
      },
    });
    runs.get(`${base}/:id/export`, {
      summary:
        'The run as a Tekton v1 PipelineRun: the spec it ran with and its status (conditions, childReferences, results); YAML with Accept: application/yaml or ?format=yaml',
      access: inWorkspace('pipelines:view'),
      params: idParamsSchema,
      querystring: pipelineRunExportQuerySchema,
      produces: ['application/json', 'application/yaml'],
      handler: async (request, reply) => {
        const document = await service.export(request.workspaceId!, request.params.id);
        const accept = request.headers.accept ?? '';
        const yaml = request.query.format ? request.query.format === 'yaml' : /\byaml\b/.test(accept);
        const name = String((document.metadata as { name?: string } | undefined)?.name ?? 'pipelinerun');
        return yaml
          ? reply
              .type('application/yaml; charset=utf-8')
              .header('content-disposition', `inline; filename="${name.replace(/[^\w.-]+/g, '_')}.yaml"`)
              .send(stringify(document, { lineWidth: 0 }))
          : reply.type('application/json; charset=utf-8').send(JSON.stringify(document));
      },
    });
    runs.get(base, {
      summary: 'Runs of the workspace, filtered by status and pipeline; X-Total-Count has the total',
      access: inWorkspace('pipelines:view'),
      querystring: pipelineRunListQuerySchema,
      response: pipelineRunListSchema,
      handler: async (request) => service.list(request.workspaceId!, request.query),
    });
    runs.get(`${base}/:id`, {
      summary: 'A run with its timing, queue position, params, results, task runs and step runs',
      access: inWorkspace('pipelines:view'),
      params: idParamsSchema,
      response: pipelineRunDetailSchema,
      handler: async (request) => service.get(request.workspaceId!, request.params.id),
    });
    const actions = [
      ['rerun', 201, 'Run again with the same params'],
      ['abort', 200, 'Stop a pending or running run'],
      ['rollback', 201, "Run the pipeline's rollback pipeline with the last good params"],
    ] as const;
    for (const [action, status, summary] of actions)
      runs.post(`${base}/:id/${action}`, {
        summary,
        access: inWorkspace('pipelines:execute'),
        auditAction: `pipeline_run.${action}`,
        auditTarget: { type: 'pipeline_run', id: 'params.id' },
        params: idParamsSchema,
        response: pipelineRunSchema,
        status,
        handler: async (request) =>
          action === 'abort'
            ? service.abort(request.workspaceId!, request.params.id)
            : service[action](request.workspaceId!, request.params.id, actorLabelOf(request.principal)),
      });
    runs.get(`${base}/:id/${PIPELINE_RUN_PATHS.logging}`, {
      summary:
        'Stored log lines as plain text, by task and step, from a line offset; download=1 sends them as a file',
      access: inWorkspace('pipelines:view'),
      params: idParamsSchema,
      querystring: pipelineRunLogsQuerySchema.extend(pipelineRunLogsDownloadSchema.shape),
      handler: async (request, reply) => {
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
    });
    runs.get(`${base}/:id/${PIPELINE_RUN_PATHS.logging}/search`, {
      summary:
        'Log lines of the run containing q (case-insensitive, ANSI escapes ignored) with task, step and line number; X-Total-Count has the number of matches',
      access: inWorkspace('pipelines:view'),
      params: idParamsSchema,
      querystring: pipelineRunLogSearchQuerySchema,
      response: logSearchResultSchema,
      handler: async (request) => {
        const { matches, total } = await service.searchLogs(
          request.workspaceId!,
          request.params.id,
          request.query,
        );
        return { rows: matches, total };
      },
    });
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
