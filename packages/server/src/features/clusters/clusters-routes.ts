import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { ClustersService } from './clusters-service.js';

const tags = ['clusters'];

export function clusterRoutes(service: ClustersService): FastifyPluginAsyncZod {
  return async (app) => {
    const clusters = resourceRoutes(app, {
      path: '/api/clusters',
      tags,
      scope: WORKSPACE,
      permission: 'clusters',
      audit: 'cluster',
    });
    clusters.list({
      summary: 'Clusters of the workspace, with their agent status and facts',
      querystring: clusterListQuerySchema,
      response: clusterListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    clusters.get({
      summary: 'One cluster',
      response: clusterSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    clusters.create({
      summary: 'Configure a cluster; answers it and its attach manifest (the only time the token is shown)',
      body: clusterCreateSchema,
      response: clusterCreatedSchema,
      targetId: 'response.cluster.id',
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: ({ cluster, attach }) => ({
        name: cluster.name,
        type: cluster.type,
        limitedAgentPermission: cluster.limitedAgentPermission,
        tokenPrefix: attach.tokenPrefix,
      }),
    });
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
    clusters.remove({
      summary: 'Detach and remove a cluster; its environments stay, without a cluster',
      handler: (ws, id) => service.remove(ws, id),
    });
  };
}
