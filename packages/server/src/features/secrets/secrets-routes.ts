import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pipelineListQuerySchema,
  secretCreateSchema,
  secretListSchema,
  secretSchema,
  secretUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
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
    standardRoutes(secrets, service, {
      schemas: {
        query: pipelineListQuerySchema,
        list: secretListSchema,
        item: secretSchema,
        create: secretCreateSchema,
        update: secretUpdateSchema,
      },
      summaries: {
        list: 'Secrets of the workspace (names and keys, never values)',
        get: 'One secret (never its values)',
        create: 'Create a secret; values are encrypted and never returned',
        update: 'Change a secret; given values replace theirs, omitted ones are kept',
        remove: 'Delete a secret',
      },
      createDetail: (created) => ({ name: created.name, keys: created.keys }),
    });
  };
}
