import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  idParamsSchema,
  inviteAcceptRequestSchema,
  inviteCreateRequestSchema,
  inviteListSchema,
  inviteLookupQuerySchema,
  inviteLookupResponseSchema,
  inviteSchema,
  loginResponseSchema,
} from '@slipway/contracts';
import { inOrganisation, PUBLIC } from '../../platform/auth/principal.js';
import { personOf, requestContext } from '../../platform/request-context.js';
import { routes } from '../../platform/routes.js';
import type { InvitesService } from './invites-service.js';

export function inviteRoutes(service: InvitesService): FastifyPluginAsyncZod {
  return async (app) => {
    const invites = routes(app, ['invites']);
    invites.post('/api/invites', {
      summary: 'Invite a person by e-mail',
      access: inOrganisation('members:create'),
      auditAction: 'member.invite',
      auditTarget: { type: 'invite', id: 'response.id' },
      body: inviteCreateRequestSchema,
      response: inviteSchema,
      status: 201,
      handler: async (request) => {
        request.audit.detail = { email: request.body.email, organisationRole: request.body.organisationRole };
        return service.create(personOf(request.principal), request.body);
      },
    });
    invites.get('/api/invites', {
      summary: 'Pending invites of my organisation',
      access: inOrganisation('members:view'),
      response: inviteListSchema,
      handler: async (request) => service.list(request.principal!.organisationId),
    });
    invites.delete('/api/invites/:id', {
      summary: 'Revoke a pending invite',
      access: inOrganisation('members:create'),
      auditAction: 'member.invite_revoke',
      auditTarget: { type: 'invite', id: 'params.id' },
      params: idParamsSchema,
      status: 204,
      handler: async (request) => service.revoke(request.principal!.organisationId, request.params.id),
    });
    invites.get('/api/invites/lookup', {
      summary: 'What an invite link is for, before accepting it',
      access: PUBLIC,
      querystring: inviteLookupQuerySchema,
      response: inviteLookupResponseSchema,
      handler: async (request) => service.lookup(request.query.token),
    });
    invites.post('/api/invites/accept', {
      summary: 'Accept an invite as a new person or an existing one; signs in to the organisation',
      access: PUBLIC,
      auditAction: 'member.invite_accept',
      auditTarget: { type: 'invite' },
      body: inviteAcceptRequestSchema,
      response: loginResponseSchema,
      handler: async (request) => {
        const { session, invite } = await service.accept(
          request.body,
          request.principal,
          requestContext(request),
        );
        // which invite is known only once its token was accepted (the answer is the session)
        request.audit.targetId = invite.id;
        request.audit.organisationId = invite.organisationId;
        request.audit.actorLabel = invite.email;
        return session;
      },
    });
  };
}
