import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clusterAttachSchema,
  clusterCreatedSchema,
  clusterCreateSchema,
  clusterListQuerySchema,
  clusterListSchema,
  clusterNamespacesUpdateSchema,
  clusterSchema,
  idParamsSchema,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { ClustersService } from './clusters-service.js';

const tags = ['clusters'];

export function clusterRoutes(service: ClustersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/clusters',
      {
        config: { access: inWorkspace('clusters:view') },
        schema: {
          tags,
          summary: 'Clusters of the workspace, with their agent status and facts',
          querystring: clusterListQuerySchema,
          response: { 200: clusterListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/clusters/:id',
      {
        config: { access: inWorkspace('clusters:view') },
        schema: { tags, summary: 'One cluster', params: idParamsSchema, response: { 200: clusterSchema } },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/clusters',
      {
        config: {
          access: inWorkspace('clusters:create'),
          auditAction: 'cluster.create',
          auditTarget: { type: 'cluster', id: 'response.cluster.id' },
        },
        schema: {
          tags,
          summary:
            'Configure a cluster; answers it and its attach manifest (the only time the token is shown)',
          body: clusterCreateSchema,
          response: { 201: clusterCreatedSchema },
        },
      },
      async (request, reply) => {
        const by = actorIdOf(request.principal);
        const created = await service.create(request.workspaceId!, request.body, by);
        request.audit.detail = {
          name: created.cluster.name,
          type: created.cluster.type,
          limitedAgentPermission: created.cluster.limitedAgentPermission,
          tokenPrefix: created.attach.tokenPrefix,
        };
        return reply.code(201).send(created);
      },
    );
    app.post(
      '/api/clusters/:id/attach',
      {
        config: {
          access: inWorkspace('clusters:edit'),
          auditAction: 'cluster.attach',
          auditTarget: { type: 'cluster', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'A new attach manifest: a fresh agent token replaces the old one, whose agent is cut off',
          params: idParamsSchema,
          response: { 200: clusterAttachSchema },
        },
      },
      async (request) => {
        const attach = await service.reattach(request.workspaceId!, request.params.id);
        request.audit.detail = { tokenPrefix: attach.tokenPrefix };
        return attach;
      },
    );
    app.put(
      '/api/clusters/:id/namespaces',
      {
        config: {
          access: inWorkspace('clusters:edit'),
          auditAction: 'cluster.namespaces',
          auditTarget: { type: 'cluster', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Choose the namespaces whose logs are collected',
          params: idParamsSchema,
          body: clusterNamespacesUpdateSchema,
          response: { 200: clusterSchema },
        },
      },
      async (request) => {
        request.audit.detail = { selectedNamespaces: request.body.selectedNamespaces };
        return service.setSelectedNamespaces(
          request.workspaceId!,
          request.params.id,
          request.body.selectedNamespaces,
        );
      },
    );
    app.post(
      '/api/clusters/:id/detach',
      {
        config: {
          access: inWorkspace('clusters:delete'),
          auditAction: 'cluster.detach',
          auditTarget: { type: 'cluster', id: 'params.id' },
        },
        schema: {
          tags,
          summary: "Detach: revoke the agent's token and close its connection",
          params: idParamsSchema,
          response: { 200: clusterSchema },
        },
      },
      async (request) => service.detach(request.workspaceId!, request.params.id),
    );
    app.delete(
      '/api/clusters/:id',
      {
        config: {
          access: inWorkspace('clusters:delete'),
          auditAction: 'cluster.delete',
          auditTarget: { type: 'cluster', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Detach and remove a cluster; its environments stay, without a cluster',
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
