import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  variableCreateSchema,
  variableListSchema,
  variableSchema,
  variableUpdateSchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { VariablesService } from './variables-service.js';

const tags = ['variables'];

/** Variables share the secrets permissions: the catalogue has no resource of their own. */
export function variableRoutes(service: VariablesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/variables',
      {
        config: { access: inWorkspace('secrets:view') },
        schema: { tags, summary: 'Variables of the workspace', response: { 200: variableListSchema } },
      },
      async (request, reply) => {
        const rows = await service.list(request.workspaceId!);
        return withTotalCount(reply, rows);
      },
    );
    app.get(
      '/api/variables/:id',
      {
        config: { access: inWorkspace('secrets:view') },
        schema: { tags, summary: 'One variable', params: idParamsSchema, response: { 200: variableSchema } },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/variables',
      {
        config: {
          access: inWorkspace('secrets:create'),
          auditAction: 'variable.create',
          auditTarget: { type: 'variable', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a variable',
          body: variableCreateSchema,
          response: { 201: variableSchema },
        },
      },
      async (request, reply) => {
        const created = await service.create(request.workspaceId!, request.body);
        request.audit.detail = { name: created.name };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/variables/:id',
      {
        config: {
          access: inWorkspace('secrets:edit'),
          auditAction: 'variable.update',
          auditTarget: { type: 'variable', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a variable',
          params: idParamsSchema,
          body: variableUpdateSchema,
          response: { 200: variableSchema },
        },
      },
      async (request) => service.update(request.workspaceId!, request.params.id, request.body),
    );
    app.delete(
      '/api/variables/:id',
      {
        config: {
          access: inWorkspace('secrets:delete'),
          auditAction: 'variable.delete',
          auditTarget: { type: 'variable', id: 'params.id' },
        },
        schema: { tags, summary: 'Delete a variable', params: idParamsSchema, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
