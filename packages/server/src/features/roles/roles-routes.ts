import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PERMISSION_CATALOGUE,
  permissionCatalogueSchema,
  roleListSchema,
  roleRequestSchema,
  roleSchema,
} from '@slipway/contracts';
import { inOrganisation } from '../../platform/auth/principal.js';
import { ORGANISATION, resourceRoutes } from '../../platform/resource-routes.js';
import { routes } from '../../platform/routes.js';
import type { RolesService } from './roles-service.js';

const tags = ['roles'];

export function roleRoutes(service: RolesService): FastifyPluginAsyncZod {
  return async (app) => {
    const roles = resourceRoutes(app, {
      path: '/api/roles',
      tags,
      scope: ORGANISATION,
      permission: 'roles',
      audit: 'role',
    });
    roles.list({
      summary: 'Built-in and custom roles with their grants',
      response: roleListSchema,
      handler: (org) => service.list(org),
    });
    routes(app, tags).get('/api/permissions', {
      summary: 'The permission catalogue: resources × actions',
      access: inOrganisation('roles:view'),
      response: permissionCatalogueSchema,
      handler: () => PERMISSION_CATALOGUE,
    });
    roles.create({
      summary: 'Create a custom role',
      body: roleRequestSchema,
      response: roleSchema,
      handler: (org, body) => service.create(org, body),
      detail: (role) => ({ name: role.name }),
    });
    roles.update({
      summary: 'Change a custom role',
      body: roleRequestSchema,
      response: roleSchema,
      handler: (org, id, body) => service.update(org, id, body),
    });
    roles.remove({
      summary: 'Delete a custom role nobody holds',
      handler: (org, id) => service.remove(org, id),
    });
  };
}
