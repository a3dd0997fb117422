import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import type { InvitesService } from './invites-service.js';

const tags = ['invites'];

export function inviteRoutes(service: InvitesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/invites',
      {
        config: {
          access: inOrganisation('members:create'),
          auditAction: 'member.invite',
          auditTarget: { type: 'invite', id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Invite a person by e-mail',
          body: inviteCreateRequestSchema,
          response: { 201: inviteSchema },
        },
      },
      async (request, reply) => {
        request.audit.detail = { email: request.body.email, organisationRole: request.body.organisationRole };
        const invite = await service.create(personOf(request.principal), request.body);
        return reply.code(201).send(invite);
      },
    );
    app.get(
      '/api/invites',
      {
        config: { access: inOrganisation('members:view') },
        schema: { tags, summary: 'Pending invites of my organisation', response: { 200: inviteListSchema } },
      },
      async (request) => service.list(request.principal!.organisationId),
    );
    app.delete(
      '/api/invites/:id',
      {
        config: {
          access: inOrganisation('members:create'),
          auditAction: 'member.invite_revoke',
          auditTarget: { type: 'invite', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Revoke a pending invite',
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.revoke(request.principal!.organisationId, request.params.id);
        return reply.code(204).send(null);
      },
    );
    app.get(
      '/api/invites/lookup',
      {
        config: { access: PUBLIC },
        schema: {
          tags,
          summary: 'What an invite link is for, before accepting it',
          querystring: inviteLookupQuerySchema,
          response: { 200: inviteLookupResponseSchema },
        },
      },
      async (request) => service.lookup(request.query.token),
    );
    app.post(
      '/api/invites/accept',
      {
        config: { access: PUBLIC, auditAction: 'member.invite_accept', auditTarget: { type: 'invite' } },
        schema: {
          tags,
          summary: 'Accept an invite as a new person or an existing one; signs in to the organisation',
          body: inviteAcceptRequestSchema,
          response: { 200: loginResponseSchema },
        },
      },
      async (request) => {
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
    );
  };
}
