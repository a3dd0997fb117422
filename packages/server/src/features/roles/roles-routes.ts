import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  PERMISSION_CATALOGUE,
  permissionCatalogueSchema,
  roleListSchema,
  roleRequestSchema,
  roleSchema,
} from '@slipway/contracts';
import { inOrganisation } from '../../platform/auth/principal.js';
import type { RolesService } from './roles-service.js';

const tags = ['roles'];

export function roleRoutes(service: RolesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/roles',
      {
        config: { access: inOrganisation('roles:view') },
        schema: {
          tags,
          summary: 'Built-in and custom roles with their grants',
          response: { 200: roleListSchema },
        },
      },
      async (request) => service.list(request.principal!.organisationId),
    );
    app.get(
      '/api/permissions',
      {
        config: { access: inOrganisation('roles:view') },
        schema: {
          tags,
          summary: 'The permission catalogue: resources × actions',
          response: { 200: permissionCatalogueSchema },
        },
      },
      async () => PERMISSION_CATALOGUE,
    );
    app.post(
      '/api/roles',
      {
        config: {
          access: inOrganisation('roles:create'),
          auditAction: 'role.create',
          auditTarget: { type: 'role', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a custom role',
          body: roleRequestSchema,
          response: { 201: roleSchema },
        },
      },
      async (request, reply) => {
        const role = await service.create(request.principal!.organisationId, request.body);
        request.audit.detail = { name: role.name };
        return reply.code(201).send(role);
      },
    );
    app.put(
      '/api/roles/:id',
      {
        config: {
          access: inOrganisation('roles:edit'),
          auditAction: 'role.update',
          auditTarget: { type: 'role', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a custom role',
          params: idParamsSchema,
          body: roleRequestSchema,
          response: { 200: roleSchema },
        },
      },
      async (request) => service.update(request.principal!.organisationId, request.params.id, request.body),
    );
    app.delete(
      '/api/roles/:id',
      {
        config: {
          access: inOrganisation('roles:delete'),
          auditAction: 'role.delete',
          auditTarget: { type: 'role', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Delete a custom role nobody holds',
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(request.principal!.organisationId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
