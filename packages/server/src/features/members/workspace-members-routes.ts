import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  listQuerySchema,
  memberParamsSchema,
  memberWorkspaceRoleRequestSchema,
  workspaceMemberAddRequestSchema,
  workspaceMemberListSchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { WorkspaceActor, WorkspaceMembersService } from './workspace-members-service.js';

const tags = ['members'];

function actorOf(request: FastifyRequest): WorkspaceActor {
  const p = request.principal!;
  return {
    userId: p.kind === 'user' ? p.userId : null,
    organisationId: p.organisationId,
    workspaceId: request.workspaceId!,
    grants: request.grants ?? [],
  };
}

/**
 * The members of the workspace named by x-workspace-id. Project admins hold the members
 * permissions in their workspace, so these are the routes they manage their team with.
 */
export function workspaceMemberRoutes(service: WorkspaceMembersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/workspace/members',
      {
        config: { access: inWorkspace('members:view') },
        schema: {
          tags,
          summary: 'Members of this workspace with their role in it',
          querystring: listQuerySchema,
          response: { 200: workspaceMemberListSchema },
        },
      },
      async (request, reply) => {
        const { total, members } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, members, total);
      },
    );
    app.post(
      '/api/workspace/members',
      {
        config: {
          access: inWorkspace('members:create'),
          auditAction: 'member.workspace_add',
          auditTarget: { type: 'user', id: 'body.userId' },
        },
        schema: {
          tags,
          summary: 'Add a member of the organisation to this workspace with a role',
          body: workspaceMemberAddRequestSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        request.audit.detail = { role: request.body.role };
        await service.add(actorOf(request), request.body.userId, request.body.role);
        return reply.code(204).send(null);
      },
    );
    app.put(
      '/api/workspace/members/:userId',
      {
        config: {
          access: inWorkspace('members:edit'),
          auditAction: 'member.role_change',
          auditTarget: { type: 'user', id: 'params.userId' },
        },
        schema: {
          tags,
          summary: "Change a member's role in this workspace ('Make Project Admin')",
          params: memberParamsSchema,
          body: memberWorkspaceRoleRequestSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        request.audit.detail = { role: request.body.role };
        await service.changeRole(actorOf(request), request.params.userId, request.body.role);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      '/api/workspace/members/:userId',
      {
        config: {
          access: inWorkspace('members:delete'),
          auditAction: 'member.workspace_remove',
          auditTarget: { type: 'user', id: 'params.userId' },
        },
        schema: {
          tags,
          summary: 'Take a member out of this workspace',
          params: memberParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        request.audit.detail = { role: null };
        await service.remove(actorOf(request), request.params.userId);
        return reply.code(204).send(null);
      },
    );
  };
}
