import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  listQuerySchema,
  memberListSchema,
  memberParamsSchema,
  memberRoleRequestSchema,
  memberWorkspaceParamsSchema,
  memberWorkspaceRoleRequestSchema,
} from '@slipway/contracts';
import type { AuditTarget } from '../../platform/audit-target.js';
import { inOrganisation } from '../../platform/auth/principal.js';
import { personOf } from '../../platform/request-context.js';
import { routes } from '../../platform/routes.js';
import type { MembersService } from './members-service.js';

/** The member a route changes, named by its path. */
const member: AuditTarget = { type: 'user', id: 'params.userId' };

export function memberRoutes(service: MembersService): FastifyPluginAsyncZod {
  return async (app) => {
    const members = routes(app, ['members']);
    const roleChange = {
      access: inOrganisation('members:edit'),
      auditAction: 'member.role_change',
      auditTarget: member,
    };
    members.get('/api/members', {
      summary: 'Members of my organisation with their organisation and workspace roles',
      access: inOrganisation('members:view'),
      querystring: listQuerySchema,
      response: memberListSchema,
      handler: async (request) => {
        const { total, members } = await service.list(request.principal!.organisationId, request.query);
        return { rows: members, total };
      },
    });
    members.put('/api/members/:userId/role', {
      ...roleChange,
      summary: "Change a member's organisation role ('Make Account admin')",
      params: memberParamsSchema,
      body: memberRoleRequestSchema,
      status: 204,
      handler: async (request) => {
        const { organisationRole } = request.body;
        request.audit.detail = { organisationRole };
        await service.changeRole(personOf(request.principal), request.params.userId, organisationRole);
      },
    });
    members.put('/api/members/:userId/workspaces/:workspaceId', {
      ...roleChange,
      summary: "Assign or change a member's workspace role ('Make Project Admin')",
      params: memberWorkspaceParamsSchema,
      body: memberWorkspaceRoleRequestSchema,
      status: 204,
      handler: async (request) => {
        const { userId, workspaceId } = request.params;
        request.audit.workspaceId = workspaceId;
        request.audit.detail = { workspaceId, role: request.body.role };
        await service.setWorkspaceRole(
          request.principal!.organisationId,
          userId,
          workspaceId,
          request.body.role,
        );
      },
    });
    members.delete('/api/members/:userId/workspaces/:workspaceId', {
      ...roleChange,
      summary: 'Take a member out of a workspace',
      params: memberWorkspaceParamsSchema,
      status: 204,
      handler: async (request) => {
        const { userId, workspaceId } = request.params;
        request.audit.workspaceId = workspaceId;
        request.audit.detail = { workspaceId, role: null };
        await service.removeFromWorkspace(request.principal!.organisationId, userId, workspaceId);
      },
    });
    members.delete('/api/members/:userId', {
      summary: 'Remove a member from the organisation; their sessions in it end',
      access: inOrganisation('members:delete'),
      auditAction: 'member.remove',
      auditTarget: member,
      params: memberParamsSchema,
      status: 204,
      handler: async (request) => service.remove(personOf(request.principal), request.params.userId),
    });
  };
}
