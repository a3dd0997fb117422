import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  pipelineListQuerySchema,
  secretCreateSchema,
  secretListSchema,
  secretSchema,
  secretUpdateSchema,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { SecretsService } from './secrets-service.js';

const tags = ['secrets'];

export function secretRoutes(service: SecretsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/secrets',
      {
        config: { access: inWorkspace('secrets:view') },
        schema: {
          tags,
          summary: 'Secrets of the workspace (names and keys, never values)',
          querystring: pipelineListQuerySchema,
          response: { 200: secretListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/secrets/:id',
      {
        config: { access: inWorkspace('secrets:view') },
        schema: {
          tags,
          summary: 'One secret (never its values)',
          params: idParamsSchema,
          response: { 200: secretSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/secrets',
      {
        config: {
          access: inWorkspace('secrets:create'),
          auditAction: 'secret.create',
          auditTarget: { type: 'secret', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a secret; values are encrypted and never returned',
          body: secretCreateSchema,
          response: { 201: secretSchema },
        },
      },
      async (request, reply) => {
        const by = actorIdOf(request.principal);
        const created = await service.create(request.workspaceId!, request.body, by);
        request.audit.detail = { name: created.name, keys: created.keys };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/secrets/:id',
      {
        config: {
          access: inWorkspace('secrets:edit'),
          auditAction: 'secret.update',
          auditTarget: { type: 'secret', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a secret; given values replace theirs, omitted ones are kept',
          params: idParamsSchema,
          body: secretUpdateSchema,
          response: { 200: secretSchema },
        },
      },
      async (request) => service.update(request.workspaceId!, request.params.id, request.body),
    );
    app.delete(
      '/api/secrets/:id',
      {
        config: {
          access: inWorkspace('secrets:delete'),
          auditAction: 'secret.delete',
          auditTarget: { type: 'secret', id: 'params.id' },
        },
        schema: { tags, summary: 'Delete a secret', params: idParamsSchema, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
