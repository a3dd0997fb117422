import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  configMapCreateSchema,
  configMapListSchema,
  configMapSchema,
  configMapUpdateSchema,
  pipelineListQuerySchema,
} from '@slipway/contracts';
import { actorIdOf } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
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
    configMaps.list({
      summary: 'Config maps of the workspace, with their values',
      querystring: pipelineListQuerySchema,
      response: configMapListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    configMaps.get({
      summary: 'One config map',
      response: configMapSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    configMaps.create({
      summary: 'Create a config map',
      body: configMapCreateSchema,
      response: configMapSchema,
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: (created) => ({ name: created.name, keys: Object.keys(created.data).sort() }),
    });
    configMaps.update({
      summary: 'Change a config map; data, when given, replaces every key',
      body: configMapUpdateSchema,
      response: configMapSchema,
      handler: (ws, id, body) => service.update(ws, id, body),
    });
    configMaps.remove({ summary: 'Delete a config map', handler: (ws, id) => service.remove(ws, id) });
  };
}
