import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callerPermissionsSchema, type CallerPermissions } from '@slipway/contracts';
import { AUTHENTICATED } from '../../platform/auth/principal.js';
import type { AccessStore } from '../../platform/auth/access-store-type.js';
import { canSeeWorkspace, organisationGrants, workspaceGrants } from '../../platform/auth/grants.js';
import { workspaceHeader } from '../../platform/headers.js';
import { routes } from '../../platform/routes.js';

/**
 * What the caller may do, so the web app can hide or disable what is not allowed and show the
 * access denied screen for a page. The server still checks every call.
 */
export function accessRoutes(store: AccessStore): FastifyPluginAsyncZod {
  return async (app) => {
    routes(app, ['access']).get('/api/access/permissions', {
      summary: "The caller's grants in their organisation and in the workspace named by x-workspace-id",
      access: AUTHENTICATED,
      response: callerPermissionsSchema,
      handler: async (request): Promise<CallerPermissions> => {
        const p = request.principal!;
        const workspaceId = workspaceHeader(request);
        const organisationRole =
          p.kind === 'user' ? await store.organisationRole(p.userId, p.organisationId) : null;
        const standing = workspaceId
          ? p.kind === 'user'
            ? await store.userStanding(p.userId, workspaceId)
            : await store.serviceAccountStanding(p.serviceAccountId, workspaceId)
          : null;
        const visible = standing !== null && canSeeWorkspace(standing, p.organisationId);
        return {
          organisationRole: organisationRole as CallerPermissions['organisationRole'],
          organisation: organisationGrants(organisationRole),
          workspaceId: visible ? workspaceId : null,
          workspaceRole: visible ? (standing.workspaceRole ?? (organisationRole ? 'admin' : null)) : null,
          workspace: visible ? workspaceGrants(standing) : [],
        };
      },
    });
  };
}
