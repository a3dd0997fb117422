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
    repositories.list({
      summary:
        'Repositories of the workspace (spec: _start, _end default 10, _sort, _order, repository_type_id, name)',
      querystring: repositoryListQuerySchema,
      response: repositoryListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    repositories.get({
      summary: 'One repository, with a hosted one’s branches',
      response: repositoryDetailSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    repositories.create({
      summary: 'Create a hosted repository, or record an external one by its URL',
      body: repositoryCreateSchema,
      response: repositoryDetailSchema,
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: ({ name, kind, defaultBranch }) => ({ name, kind, defaultBranch }),
    });
    repositories.update({
      summary: 'Change a repository’s description or default branch',
      body: repositoryUpdateSchema,
      response: repositoryDetailSchema,
      handler: (ws, id, body, request) => {
        request.audit.detail = { ...body };
        return service.update(ws, id, body);
      },
    });
    repositories.remove({
      summary: 'Delete a repository; a hosted one’s git data and deploy tokens go with it',
      handler: (ws, id) => service.remove(ws, id),
    });

    app.get(
      '/api/admin/repository/:id/deploy-tokens',
      {
        config: { access: inWorkspace('repositories:view') },
        schema: {
          tags,
          summary: 'A hosted repository’s deploy tokens (never the tokens themselves)',
          params: idParamsSchema,
          response: { 200: deployTokenListSchema },
        },
      },
      async (request) => service.tokens(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/admin/repository/:id/deploy-tokens',
      {
        config: {
          access: inWorkspace('repositories:edit'),
          auditAction: 'repository.deploy_token.create',
          auditTarget: { type: 'repository', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Make a deploy token; the answer holds the token, this once',
          params: idParamsSchema,
          body: deployTokenCreateSchema,
          response: { 201: deployTokenCreatedSchema },
        },
      },
      async (request, reply) => {
        const created = await service.createToken(
          request.workspaceId!,
          request.params.id,
          request.body,
          actorIdOf(request.principal),
        );
        request.audit.detail = { tokenId: created.id, name: created.name, access: created.access };
        return reply.code(201).send(created);
      },
    );
    app.delete(
      '/api/admin/repository/:id/deploy-tokens/:tokenId',
      {
        config: {
          access: inWorkspace('repositories:edit'),
          auditAction: 'repository.deploy_token.revoke',
          auditTarget: { type: 'repository', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Revoke a deploy token',
          params: tokenParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.revokeToken(request.workspaceId!, request.params.id, request.params.tokenId);
        request.audit.detail = { tokenId: request.params.tokenId };
        return reply.code(204).send(null);
      },
    );
  };
}
