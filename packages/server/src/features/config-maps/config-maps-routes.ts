import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  configMapCreateSchema,
  configMapListSchema,
  configMapSchema,
  configMapUpdateSchema,
  pipelineListQuerySchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { ConfigMapsService } from './config-maps-service.js';

/** Config maps share the secrets permissions, as variables do: configuration of the workspace's runs. */
export function configMapRoutes(service: ConfigMapsService): FastifyPluginAsyncZod {
  return async (app) => {
    const configMaps = resourceRoutes(app, {
      path: '/api/config-maps',
      tags: ['config maps'],
      scope: WORKSPACE,
      permission: 'secrets',
      audit: 'config_map',
    });
    standardRoutes(configMaps, service, {
      schemas: {
        query: pipelineListQuerySchema,
        list: configMapListSchema,
        item: configMapSchema,
        create: configMapCreateSchema,
        update: configMapUpdateSchema,
      },
      summaries: {
        list: 'Config maps of the workspace, with their values',
        get: 'One config map',
        create: 'Create a config map',
        update: 'Change a config map; data, when given, replaces every key',
        remove: 'Delete a config map',
      },
      createDetail: (created) => ({ name: created.name, keys: Object.keys(created.data).sort() }),
    });
  };
}
