import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  environmentCreateSchema,
  environmentDetailSchema,
  environmentListQuerySchema,
  environmentListSchema,
  environmentUpdateSchema,
  idParamsSchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { EnvironmentsService } from './environments-service.js';

const tags = ['environments'];

export function environmentRoutes(service: EnvironmentsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/environments',
      {
        config: { access: inWorkspace('environments:view') },
        schema: {
          tags,
          summary: 'Environments of the workspace, with their cluster and namespace',
          querystring: environmentListQuerySchema,
          response: { 200: environmentListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/environments/:id',
      {
        config: { access: inWorkspace('environments:view') },
        schema: {
          tags,
          summary: 'One environment and what is deployed there, with its health',
          params: idParamsSchema,
          response: { 200: environmentDetailSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/environments',
      {
        config: {
          access: inWorkspace('environments:create'),
          auditAction: 'environment.create',
          auditTarget: { type: 'environment', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create an environment',
          body: environmentCreateSchema,
          response: { 201: environmentDetailSchema },
        },
      },
      async (request, reply) => {
        const created = await service.create(request.workspaceId!, request.body);
        request.audit.detail = {
          name: created.name,
          type: created.type,
          clusterId: created.clusterId,
          namespace: created.namespace,
        };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/environments/:id',
      {
        config: {
          access: inWorkspace('environments:edit'),
          auditAction: 'environment.update',
          auditTarget: { type: 'environment', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change an environment; omitted fields are kept',
          params: idParamsSchema,
          body: environmentUpdateSchema,
          response: { 200: environmentDetailSchema },
        },
      },
      async (request) => {
        request.audit.detail = { ...request.body };
        return service.update(request.workspaceId!, request.params.id, request.body);
      },
    );
    app.delete(
      '/api/environments/:id',
      {
        config: {
          access: inWorkspace('environments:delete'),
          auditAction: 'environment.delete',
          auditTarget: { type: 'environment', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Delete an environment',
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
