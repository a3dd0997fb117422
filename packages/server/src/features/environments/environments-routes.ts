import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  environmentCreateSchema,
  environmentDetailSchema,
  environmentListQuerySchema,
  environmentListSchema,
  environmentUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
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
    standardRoutes(environments, service, {
      schemas: {
        query: environmentListQuerySchema,
        list: environmentListSchema,
        item: environmentDetailSchema,
        create: environmentCreateSchema,
        update: environmentUpdateSchema,
      },
      summaries: {
        list: 'Environments of the workspace, with their cluster and namespace',
        get: 'One environment and what is deployed there, with its health',
        create: 'Create an environment',
        update: 'Change an environment; omitted fields are kept',
        remove: 'Delete an environment',
      },
      createDetail: ({ name, type, clusterId, namespace, taskRunner }) => ({
        name,
        type,
        clusterId,
        namespace,
        taskRunner,
      }),
      updateDetail: (body) => ({ ...body }),
    });
  };
}
