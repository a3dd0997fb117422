import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pipelineListQuerySchema,
  secretCreateSchema,
  secretListSchema,
  secretSchema,
  secretUpdateSchema,
} from '@slipway/contracts';
import { actorIdOf } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { SecretsService } from './secrets-service.js';

export function secretRoutes(service: SecretsService): FastifyPluginAsyncZod {
  return async (app) => {
    const secrets = resourceRoutes(app, {
      path: '/api/secrets',
      tags: ['secrets'],
      scope: WORKSPACE,
      permission: 'secrets',
      audit: 'secret',
    });
    secrets.list({
      summary: 'Secrets of the workspace (names and keys, never values)',
      querystring: pipelineListQuerySchema,
      response: secretListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    secrets.get({
      summary: 'One secret (never its values)',
      response: secretSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    secrets.create({
      summary: 'Create a secret; values are encrypted and never returned',
      body: secretCreateSchema,
      response: secretSchema,
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: (created) => ({ name: created.name, keys: created.keys }),
    });
    secrets.update({
      summary: 'Change a secret; given values replace theirs, omitted ones are kept',
      body: secretUpdateSchema,
      response: secretSchema,
      handler: (ws, id, body) => service.update(ws, id, body),
    });
    secrets.remove({ summary: 'Delete a secret', handler: (ws, id) => service.remove(ws, id) });
  };
}
