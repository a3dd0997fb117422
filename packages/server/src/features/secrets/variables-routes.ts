import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  variableCreateSchema,
  variableListSchema,
  variableSchema,
  variableUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { VariablesService } from './variables-service.js';

/** Variables share the secrets permissions: the catalogue has no resource of their own. */
export function variableRoutes(service: VariablesService): FastifyPluginAsyncZod {
  return async (app) => {
    const variables = resourceRoutes(app, {
      path: '/api/variables',
      tags: ['variables'],
      scope: WORKSPACE,
      permission: 'secrets',
      audit: 'variable',
    });
    standardRoutes(variables, service, {
      schemas: {
        list: variableListSchema,
        item: variableSchema,
        create: variableCreateSchema,
        update: variableUpdateSchema,
      },
      summaries: {
        list: 'Variables of the workspace',
        get: 'One variable',
        create: 'Create a variable',
        update: 'Change a variable',
        remove: 'Delete a variable',
      },
      createDetail: (created) => ({ name: created.name }),
    });
  };
}
