import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deployTokenCreatedSchema,
  deployTokenCreateSchema,
  deployTokenListSchema,
  idParamsSchema,
  repositoryCreateSchema,
  repositoryDetailSchema,
  repositoryListQuerySchema,
  repositoryListSchema,
  repositoryUpdateSchema,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { routes } from '../../platform/routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { RepositoriesService } from './repositories-service.js';

const tags = ['repositories'];
const tokenParamsSchema = idParamsSchema.extend({ tokenId: z.string().min(1).max(100) });

/** `/api/admin/repository` (spec §7): the workspace's repositories and hosted ones' deploy tokens. */
export function repositoryRoutes(service: RepositoriesService): FastifyPluginAsyncZod {
  return async (app) => {
    const repositories = resourceRoutes(app, {
      path: '/api/admin/repository',
      tags,
      scope: WORKSPACE,
      permission: 'repositories',
      audit: 'repository',
    });
    standardRoutes(repositories, service, {
      schemas: {
        query: repositoryListQuerySchema,
        list: repositoryListSchema,
        item: repositoryDetailSchema,
        create: repositoryCreateSchema,
        update: repositoryUpdateSchema,
      },
      summaries: {
        list: 'Repositories of the workspace (spec: _start, _end default 10, _sort, _order, repository_type_id, name)',
        get: 'One repository, with a hosted one’s branches',
        create: 'Create a hosted repository, or record an external one by its URL',
        update: 'Change a repository’s description or default branch',
        remove: 'Delete a repository; a hosted one’s git data and deploy tokens go with it',
      },
      createDetail: ({ name, kind, defaultBranch }) => ({ name, kind, defaultBranch }),
      updateDetail: (body) => ({ ...body }),
    });
    repositories.view({
      name: 'deploy-tokens',
      summary: 'A hosted repository’s deploy tokens (never the tokens themselves)',
      response: deployTokenListSchema,
      handler: (ws, { id }) => service.tokens(ws, id),
    });
    repositories.action({
      name: 'deploy-tokens',
      summary: 'Make a deploy token; the answer holds the token, this once',
      auditAction: 'repository.deploy_token.create',
      status: 201,
      body: deployTokenCreateSchema,
      response: deployTokenCreatedSchema,
      handler: async (ws, id, body, request) => {
        const created = await service.createToken(ws, id, body, actorIdOf(request.principal));
        request.audit.detail = { tokenId: created.id, name: created.name, access: created.access };
        return created;
      },
    });
    routes(app, tags).delete('/api/admin/repository/:id/deploy-tokens/:tokenId', {
      summary: 'Revoke a deploy token',
      access: inWorkspace('repositories:edit'),
      auditAction: 'repository.deploy_token.revoke',
      auditTarget: { type: 'repository', id: 'params.id' },
      params: tokenParamsSchema,
      status: 204,
      handler: async (request) => {
        await service.revokeToken(request.workspaceId!, request.params.id, request.params.tokenId);
        request.audit.detail = { tokenId: request.params.tokenId };
      },
    });
  };
}
