import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  listQuerySchema,
  memberParamsSchema,
  memberWorkspaceRoleRequestSchema,
  workspaceMemberAddRequestSchema,
  workspaceMemberListSchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { routes } from '../../platform/routes.js';
import type { WorkspaceActor, WorkspaceMembersService } from './workspace-members-service.js';

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
    const members = routes(app, ['members']);
    const path = '/api/workspace/members';
    members.get(path, {
      summary: 'Members of this workspace with their role in it',
      access: inWorkspace('members:view'),
      querystring: listQuerySchema,
      response: workspaceMemberListSchema,
      handler: async (request) => {
        const { total, members } = await service.list(request.workspaceId!, request.query);
        return { rows: members, total };
      },
    });
    members.post(path, {
      summary: 'Add a member of the organisation to this workspace with a role',
      access: inWorkspace('members:create'),
      auditAction: 'member.workspace_add',
      auditTarget: { type: 'user', id: 'body.userId' },
      body: workspaceMemberAddRequestSchema,
      status: 204,
      handler: async (request) => {
        request.audit.detail = { role: request.body.role };
        await service.add(actorOf(request), request.body.userId, request.body.role);
      },
    });
    const target = { type: 'user', id: 'params.userId' } as const;
    members.put(`${path}/:userId`, {
      summary: "Change a member's role in this workspace ('Make Project Admin')",
      access: inWorkspace('members:edit'),
      auditAction: 'member.role_change',
      auditTarget: target,
      params: memberParamsSchema,
      body: memberWorkspaceRoleRequestSchema,
      status: 204,
      handler: async (request) => {
        request.audit.detail = { role: request.body.role };
        await service.changeRole(actorOf(request), request.params.userId, request.body.role);
      },
    });
    members.delete(`${path}/:userId`, {
      summary: 'Take a member out of this workspace',
      access: inWorkspace('members:delete'),
      auditAction: 'member.workspace_remove',
      auditTarget: target,
      params: memberParamsSchema,
      status: 204,
      handler: async (request) => {
        request.audit.detail = { role: null };
        await service.remove(actorOf(request), request.params.userId);
      },
    });
  };
}
