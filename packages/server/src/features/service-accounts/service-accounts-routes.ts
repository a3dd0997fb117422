import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  serviceAccountCreatedSchema,
  serviceAccountCreateRequestSchema,
  serviceAccountListSchema,
  serviceAccountSchema,
  serviceAccountWorkspacesRequestSchema,
} from '@slipway/contracts';
import { inOrganisation } from '../../platform/auth/principal.js';
import { personOf } from '../../platform/request-context.js';
import type { ServiceAccountsService } from './service-accounts-service.js';

const tags = ['service accounts'];

export function serviceAccountRoutes(service: ServiceAccountsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/service-accounts',
      {
        config: {
          access: inOrganisation('serviceAccounts:create'),
          auditAction: 'service_account.create',
          auditTarget: { type: 'service_account', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Create a service account; its token is in this answer only',
          body: serviceAccountCreateRequestSchema,
          response: { 201: serviceAccountCreatedSchema },
        },
      },
      async (request, reply) => {
        const p = personOf(request.principal);
        request.audit.detail = { name: request.body.name, expiresAt: request.body.expiresAt };
        const created = await service.create(
          { id: p.userId, organisationId: p.organisationId },
          request.body,
        );
        return reply.code(201).send(created);
      },
    );
    app.get(
      '/api/service-accounts',
      {
        config: { access: inOrganisation('serviceAccounts:view') },
        schema: {
          tags,
          summary: 'Service accounts of my organisation (never their tokens)',
          response: { 200: serviceAccountListSchema },
        },
      },
      async (request) => service.list(request.principal!.organisationId),
    );
    app.put(
      '/api/service-accounts/:id/workspaces',
      {
        config: {
          access: inOrganisation('serviceAccounts:edit'),
          auditAction: 'service_account.update',
          auditTarget: { type: 'service_account', id: 'params.id' },
        },
        schema: {
          tags,
          summary: "Replace a service account's project permissions (a role per workspace)",
          params: idParamsSchema,
          body: serviceAccountWorkspacesRequestSchema,
          response: { 200: serviceAccountSchema },
        },
      },
      async (request) => {
        request.audit.detail = { workspaces: request.body.workspaces };
        return service.setWorkspaces(
          request.principal!.organisationId,
          request.params.id,
          request.body.workspaces,
        );
      },
    );
    app.delete(
      '/api/service-accounts/:id',
      {
        config: {
          access: inOrganisation('serviceAccounts:delete'),
          auditAction: 'service_account.revoke',
          auditTarget: { type: 'service_account', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Revoke a service account: its token stops working',
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.revoke(request.principal!.organisationId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
