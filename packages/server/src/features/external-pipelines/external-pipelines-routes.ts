import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  externalPipelineCreateSchema,
  externalPipelineListSchema,
  externalPipelineSchema,
  externalPipelineSyncSchema,
  externalPipelineUpdateSchema,
  pipelineListQuerySchema,
} from '@slipway/contracts';
import { actorIdOf } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { ExternalPipelinesService } from './external-pipelines-service.js';

/**
 * External pipelines (`/api/external-pipelines`): pipelines whose definition is read from git.
 * They are pipelines too (the same permissions; listed, run and exported under /api/pipelines).
 */
export function externalPipelineRoutes(service: ExternalPipelinesService): FastifyPluginAsyncZod {
  return async (app) => {
    const pipelines = resourceRoutes(app, {
      path: '/api/external-pipelines',
      tags: ['external pipelines'],
      scope: WORKSPACE,
      permission: 'pipelines',
      audit: 'externalPipeline',
      targetType: 'pipeline',
    });
    standardRoutes(pipelines, service, {
      schemas: {
        query: pipelineListQuerySchema,
        list: externalPipelineListSchema,
        item: externalPipelineSchema,
        create: externalPipelineCreateSchema,
        update: externalPipelineUpdateSchema,
      },
      summaries: {
        list: 'List external pipelines; filter by name; X-Total-Count has the total',
        get: 'One external pipeline with its source and sync state',
        create: 'Add an external pipeline: its file is read from git and validated first',
        update: 'Change an external pipeline; a new source is read and validated first',
        remove: 'Delete an external pipeline (refused while a run is pending or in progress)',
      },
      createDetail: (created) => ({ name: created.name, url: created.source.url }),
    });
    pipelines.action({
      name: 'sync',
      summary: 'Read the file from git again: a new version when it changed; a failure is kept in syncError',
      response: externalPipelineSyncSchema,
      handler: async (ws, id, _body, request) => {
        const synced = await service.sync(ws, id, actorIdOf(request.principal));
        request.audit.detail = { outcome: synced.outcome, version: synced.pipeline.version };
        return synced;
      },
    });
  };
}
