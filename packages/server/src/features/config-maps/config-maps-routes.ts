import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  configMapCreateSchema,
  configMapListSchema,
  configMapSchema,
  configMapUpdateSchema,
  idParamsSchema,
  pipelineListQuerySchema,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { ConfigMapsService } from './config-maps-service.js';

const tags = ['config maps'];

/** Config maps share the secrets permissions, as variables do: configuration of the workspace's runs. */
export function configMapRoutes(service: ConfigMapsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/config-maps',
      {
        config: { access: inWorkspace('secrets:view') },
        schema: {
          tags,
          summary: 'Config maps of the workspace, with their values',
          querystring: pipelineListQuerySchema,
          response: { 200: configMapListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/config-maps/:id',
      {
        config: { access: inWorkspace('secrets:view') },
        schema: {
          tags,
          summary: 'One config map',
          params: idParamsSchema,
          response: { 200: configMapSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/config-maps',
      {
        config: {
          access: inWorkspace('secrets:create'),
          auditAction: 'config_map.create',
          auditTarget: { type: 'config_map', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a config map',
          body: configMapCreateSchema,
          response: { 201: configMapSchema },
        },
      },
      async (request, reply) => {
        const by = actorIdOf(request.principal);
        const created = await service.create(request.workspaceId!, request.body, by);
        request.audit.detail = { name: created.name, keys: Object.keys(created.data).sort() };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/config-maps/:id',
      {
        config: {
          access: inWorkspace('secrets:edit'),
          auditAction: 'config_map.update',
          auditTarget: { type: 'config_map', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a config map; data, when given, replaces every key',
          params: idParamsSchema,
          body: configMapUpdateSchema,
          response: { 200: configMapSchema },
        },
      },
      async (request) => service.update(request.workspaceId!, request.params.id, request.body),
    );
    app.delete(
      '/api/config-maps/:id',
      {
        config: {
          access: inWorkspace('secrets:delete'),
          auditAction: 'config_map.delete',
          auditTarget: { type: 'config_map', id: 'params.id' },
        },
        schema: { tags, summary: 'Delete a config map', params: idParamsSchema, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
