import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import { withTotalCount } from '../../platform/database/paging.js';
import type { ExternalPipelinesService } from './external-pipelines-service.js';

const BASE = '/api/external-pipelines';
const tags = ['external pipelines'];

/**
 * External pipelines (`/api/external-pipelines`): pipelines whose definition is read from git.
 * They are pipelines too (the same permissions; listed, run and exported under /api/pipelines).
 */
export function externalPipelineRoutes(service: ExternalPipelinesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      BASE,
      {
        config: { access: inWorkspace('pipelines:view') },
        schema: {
          tags,
          summary: 'List external pipelines; filter by name; X-Total-Count has the total',
          querystring: pipelineListQuerySchema,
          response: { 200: externalPipelineListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      `${BASE}/:id`,
      {
        config: { access: inWorkspace('pipelines:view') },
        schema: {
          tags,
          summary: 'One external pipeline with its source and sync state',
          params: idParamsSchema,
          response: { 200: externalPipelineSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      BASE,
      {
        config: {
          access: inWorkspace('pipelines:create'),
          auditAction: 'externalPipeline.create',
          auditTarget: { type: 'pipeline', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Add an external pipeline: its file is read from git and validated first',
          body: externalPipelineCreateSchema,
          response: { 201: externalPipelineSchema },
        },
      },
      async (request, reply) => {
        const created = await service.create(
          request.workspaceId!,
          request.body,
          actorIdOf(request.principal),
        );
        request.audit.detail = { name: created.name, url: created.source.url };
        return reply.code(201).send(created);
      },
    );
    app.put(
      `${BASE}/:id`,
      {
        config: {
          access: inWorkspace('pipelines:edit'),
          auditAction: 'externalPipeline.update',
          auditTarget: { type: 'pipeline', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change an external pipeline; a new source is read and validated first',
          params: idParamsSchema,
          body: externalPipelineUpdateSchema,
          response: { 200: externalPipelineSchema },
        },
      },
      async (request) =>
        service.update(request.workspaceId!, request.params.id, request.body, actorIdOf(request.principal)),
    );
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
    app.delete(
      `${BASE}/:id`,
      {
        config: {
          access: inWorkspace('pipelines:delete'),
          auditAction: 'externalPipeline.delete',
          auditTarget: { type: 'pipeline', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Delete an external pipeline (refused while a run is pending or in progress)',
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
