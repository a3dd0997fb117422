import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  externalPipelineCreateSchema,
  externalPipelineListSchema,
  externalPipelineSchema,
  externalPipelineSyncSchema,
  externalPipelineUpdateSchema,
  idParamsSchema,
  pipelineListQuerySchema,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { ExternalPipelinesService } from './external-pipelines-service.js';

const BASE = '/api/external-pipelines';
const tags = ['external pipelines'];

/**
 * External pipelines (`/api/external-pipelines`): pipelines whose definition is read from git.
 * They are pipelines too (the same permissions; listed, run and exported under /api/pipelines).
 */
export function externalPipelineRoutes(service: ExternalPipelinesService): FastifyPluginAsyncZod {
  return async (app) => {
    const pipelines = resourceRoutes(app, {
      path: BASE,
      tags,
      scope: WORKSPACE,
      permission: 'pipelines',
      audit: 'externalPipeline',
      targetType: 'pipeline',
    });
    pipelines.list({
      summary: 'List external pipelines; filter by name; X-Total-Count has the total',
      querystring: pipelineListQuerySchema,
      response: externalPipelineListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    pipelines.get({
      summary: 'One external pipeline with its source and sync state',
      response: externalPipelineSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    pipelines.create({
      summary: 'Add an external pipeline: its file is read from git and validated first',
      body: externalPipelineCreateSchema,
      response: externalPipelineSchema,
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: (created) => ({ name: created.name, url: created.source.url }),
    });
    pipelines.update({
      summary: 'Change an external pipeline; a new source is read and validated first',
      body: externalPipelineUpdateSchema,
      response: externalPipelineSchema,
      handler: (ws, id, body, request) => service.update(ws, id, body, actorIdOf(request.principal)),
    });
    app.post(
      `${BASE}/:id/sync`,
      {
        config: {
          access: inWorkspace('pipelines:edit'),
          auditAction: 'externalPipeline.sync',
          auditTarget: { type: 'pipeline', id: 'params.id' },
        },
        schema: {
          tags,
          summary:
            'Read the file from git again: a new version when it changed; a failure is kept in syncError',
          params: idParamsSchema,
          response: { 200: externalPipelineSyncSchema },
        },
      },
      async (request) => {
        const synced = await service.sync(
          request.workspaceId!,
          request.params.id,
          actorIdOf(request.principal),
        );
        request.audit.detail = { outcome: synced.outcome, version: synced.pipeline.version };
        return synced;
      },
    );
    pipelines.remove({
      summary: 'Delete an external pipeline (refused while a run is pending or in progress)',
      handler: (ws, id) => service.remove(ws, id),
    });
  };
}
