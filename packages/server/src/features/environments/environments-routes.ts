import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  environmentCreateSchema,
  environmentDetailSchema,
  environmentListQuerySchema,
  environmentListSchema,
  environmentUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { EnvironmentsService } from './environments-service.js';

export function environmentRoutes(service: EnvironmentsService): FastifyPluginAsyncZod {
  return async (app) => {
    const environments = resourceRoutes(app, {
      path: '/api/environments',
      tags: ['environments'],
      scope: WORKSPACE,
      permission: 'environments',
      audit: 'environment',
    });
    environments.list({
      summary: 'Environments of the workspace, with their cluster and namespace',
      querystring: environmentListQuerySchema,
      response: environmentListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    environments.get({
      summary: 'One environment and what is deployed there, with its health',
      response: environmentDetailSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    environments.create({
      summary: 'Create an environment',
      body: environmentCreateSchema,
      response: environmentDetailSchema,
      handler: (ws, body) => service.create(ws, body),
      detail: ({ name, type, clusterId, namespace }) => ({ name, type, clusterId, namespace }),
    });
    environments.update({
      summary: 'Change an environment; omitted fields are kept',
      body: environmentUpdateSchema,
      response: environmentDetailSchema,
      handler: (ws, id, body, request) => {
        request.audit.detail = { ...body };
        return service.update(ws, id, body);
      },
    });
    environments.remove({ summary: 'Delete an environment', handler: (ws, id) => service.remove(ws, id) });
  };
}
