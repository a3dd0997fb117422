import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  loginResponseSchema,
  organisationListSchema,
  organisationSchema,
  organisationUpdateRequestSchema,
  workspaceListSchema,
  workspaceRequestSchema,
  workspaceSchema,
} from '@slipway/contracts';
import { AUTHENTICATED, inOrganisation } from '../../platform/auth/principal.js';
import { NotAuthenticatedError } from '../../platform/errors.js';
import { personOf, requestContext } from '../../platform/request-context.js';
import { ORGANISATION, resourceRoutes } from '../../platform/resource-routes.js';
import { routes } from '../../platform/routes.js';
import type { OrganisationsService } from './organisations-service.js';

export function organisationRoutes(service: OrganisationsService): FastifyPluginAsyncZod {
  return async (app) => {
    const organisations = routes(app, ['organisations']);
    organisations.get('/api/organisations', {
      summary: 'The organisations I belong to, with my role',
      access: AUTHENTICATED,
      response: organisationListSchema,
      handler: async (request) => {
        const p = personOf(request.principal);
        return service.list(p.userId, p.organisationId);
      },
    });
    organisations.post('/api/organisations/:id/switch', {
      summary: 'Account switch: end this session and sign in to another organisation of mine',
      access: AUTHENTICATED,
      auditAction: 'organisation.switch',
      params: idParamsSchema,
      response: loginResponseSchema,
      handler: async (request) => {
        const p = personOf(request.principal);
        // Not declared on the route: a service account refused above leaves no target in its record.
        request.audit.targetType = 'organisation';
        request.audit.targetId = request.params.id;
        return service.switchTo(p, request.params.id, requestContext(request));
      },
    });
    organisations.put('/api/organisations/:id', {
      summary:
        "My current organisation's settings: rename it, and/or cap any run's duration " +
        '(maxRunMinutes, 1–10080, or null for no cap); organisation admins only',
      access: inOrganisation('organisation:edit'),
      auditAction: 'organisation.update',
      auditTarget: { type: 'organisation', id: 'params.id' },
      params: idParamsSchema,
      body: organisationUpdateRequestSchema,
      response: organisationSchema,
      handler: async (request) => {
        const p = personOf(request.principal);
        const { name, maxRunMinutes } = request.body;
        request.audit.detail = {
          ...(name !== undefined ? { name } : {}),
          ...(maxRunMinutes !== undefined ? { maxRunMinutes } : {}),
        };
        return service.update(p, request.params.id, request.body);
      },
    });

    const wsTags = ['workspaces'];
    routes(app, wsTags).get('/api/workspaces', {
      summary: 'The workspaces I can see in my current organisation',
      access: AUTHENTICATED,
      response: workspaceListSchema,
      handler: async (request) => {
        if (!request.principal) throw new NotAuthenticatedError();
        return service.workspaces(request.principal);
      },
    });
    const workspaces = resourceRoutes(app, {
      path: '/api/workspaces',
      tags: wsTags,
      scope: ORGANISATION,
      permission: 'workspace',
      audit: 'workspace',
    });
    workspaces.create({
      summary: 'Create a workspace',
      body: workspaceRequestSchema,
      response: workspaceSchema,
      handler: (org, { name }) => service.createWorkspace(org, name),
    });
    workspaces.update({
      summary: 'Rename a workspace',
      body: workspaceRequestSchema,
      response: workspaceSchema,
      handler: (org, id, { name }) => service.renameWorkspace(org, id, name),
    });
    workspaces.remove({
      summary: 'Delete a workspace (not the last one)',
      handler: (org, id) => service.deleteWorkspace(org, id),
    });
  };
}
