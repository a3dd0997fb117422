import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  variableCreateSchema,
  variableListSchema,
  variableSchema,
  variableUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
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
    variables.list({
      summary: 'Variables of the workspace',
      response: variableListSchema,
      handler: async (ws) => ({ rows: await service.list(ws) }),
    });
    variables.get({
      summary: 'One variable',
      response: variableSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    variables.create({
      summary: 'Create a variable',
      body: variableCreateSchema,
      response: variableSchema,
      handler: (ws, body) => service.create(ws, body),
      detail: (created) => ({ name: created.name }),
    });
    variables.update({
      summary: 'Change a variable',
      body: variableUpdateSchema,
      response: variableSchema,
      handler: (ws, id, body) => service.update(ws, id, body),
    });
    variables.remove({ summary: 'Delete a variable', handler: (ws, id) => service.remove(ws, id) });
  };
}
