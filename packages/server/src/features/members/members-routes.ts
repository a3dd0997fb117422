import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  listQuerySchema,
  memberListSchema,
  memberParamsSchema,
  memberRoleRequestSchema,
  memberWorkspaceParamsSchema,
  memberWorkspaceRoleRequestSchema,
} from '@slipway/contracts';
import { inOrganisation } from '../../platform/auth/principal.js';
import { personOf } from '../../platform/request-context.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { MembersService } from './members-service.js';

const tags = ['members'];

export function memberRoutes(service: MembersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/members',
      {
        config: { access: inOrganisation('members:view') },
        schema: {
          tags,
          summary: 'Members of my organisation with their organisation and workspace roles',
          querystring: listQuerySchema,
          response: { 200: memberListSchema },
        },
      },
      async (request, reply) => {
        const { total, members } = await service.list(request.principal!.organisationId, request.query);
        return withTotalCount(reply, members, total);
      },
    );
    app.put(
      '/api/members/:userId/role',
      {
        config: {
          access: inOrganisation('members:edit'),
          auditAction: 'member.role_change',
          auditTarget: { type: 'user', id: 'params.userId' },
        },
        schema: {
          tags,
          summary: "Change a member's organisation role ('Make Account admin')",
          params: memberParamsSchema,
          body: memberRoleRequestSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        request.audit.detail = { organisationRole: request.body.organisationRole };
        await service.changeRole(
          personOf(request.principal),
          request.params.userId,
          request.body.organisationRole,
        );
        return reply.code(204).send(null);
      },
    );
    app.put(
      '/api/members/:userId/workspaces/:workspaceId',
      {
        config: {
          access: inOrganisation('members:edit'),
          auditAction: 'member.role_change',
          auditTarget: { type: 'user', id: 'params.userId' },
        },
        schema: {
          tags,
          summary: "Assign or change a member's workspace role ('Make Project Admin')",
          params: memberWorkspaceParamsSchema,
          body: memberWorkspaceRoleRequestSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { userId, workspaceId } = request.params;
        request.audit.workspaceId = workspaceId;
        request.audit.detail = { workspaceId, role: request.body.role };
        await service.setWorkspaceRole(
          request.principal!.organisationId,
          userId,
          workspaceId,
          request.body.role,
        );
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/api/members/:userId/workspaces/:workspaceId',
      {
        config: {
          access: inOrganisation('members:edit'),
          auditAction: 'member.role_change',
          auditTarget: { type: 'user', id: 'params.userId' },
        },
        schema: {
          tags,
          summary: 'Take a member out of a workspace',
          params: memberWorkspaceParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { userId, workspaceId } = request.params;
        request.audit.workspaceId = workspaceId;
        request.audit.detail = { workspaceId, role: null };
        await service.removeFromWorkspace(request.principal!.organisationId, userId, workspaceId);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/api/members/:userId',
      {
        config: {
          access: inOrganisation('members:delete'),
          auditAction: 'member.remove',
          auditTarget: { type: 'user', id: 'params.userId' },
        },
        schema: {
          tags,
          summary: 'Remove a member from the organisation; their sessions in it end',
          params: memberParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(personOf(request.principal), request.params.userId);
        return reply.code(204).send(null);
      },
    );
  };
}
