import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  serviceAccountCreatedSchema,
  serviceAccountCreateRequestSchema,
  serviceAccountListSchema,
  serviceAccountSchema,
  serviceAccountWorkspacesRequestSchema,
} from '@slipway/contracts';
import { personOf } from '../../platform/request-context.js';
import { ORGANISATION, resourceRoutes } from '../../platform/resource-routes.js';
import type { ServiceAccountsService } from './service-accounts-service.js';

export function serviceAccountRoutes(service: ServiceAccountsService): FastifyPluginAsyncZod {
  return async (app) => {
    const accounts = resourceRoutes(app, {
      path: '/api/service-accounts',
      tags: ['service accounts'],
      scope: ORGANISATION,
      permission: 'serviceAccounts',
      audit: 'service_account',
    });
    accounts.create({
      summary: 'Create a service account; its token is in this answer only',
      body: serviceAccountCreateRequestSchema,
      response: serviceAccountCreatedSchema,
      handler: (_org, body, request) => {
        const p = personOf(request.principal);
        request.audit.detail = { name: body.name, expiresAt: body.expiresAt };
        return service.create({ id: p.userId, organisationId: p.organisationId }, body);
      },
    });
    accounts.list({
      summary: 'Service accounts of my organisation (never their tokens)',
      response: serviceAccountListSchema,
      handler: (org) => service.list(org),
    });
    accounts.update({
      path: '/api/service-accounts/:id/workspaces',
      summary: "Replace a service account's project permissions (a role per workspace)",
      body: serviceAccountWorkspacesRequestSchema,
      response: serviceAccountSchema,
      handler: (org, id, { workspaces }, request) => {
        request.audit.detail = { workspaces };
        return service.setWorkspaces(org, id, workspaces);
      },
    });
    accounts.remove({
      summary: 'Revoke a service account: its token stops working',
      auditAction: 'service_account.revoke',
      handler: (org, id) => service.revoke(org, id),
    });
  };
}
