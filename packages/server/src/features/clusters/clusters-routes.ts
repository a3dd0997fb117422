import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clusterAttachSchema,
  clusterCreatedSchema,
  clusterCreateSchema,
  clusterListQuerySchema,
  clusterListSchema,
  clusterNamespacesUpdateSchema,
  clusterSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE, type Resource } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { ClustersService } from './clusters-service.js';

/** The workspace's clusters: the resource of these routes and of the resources browser's. */
export const CLUSTERS: Resource = {
  path: '/api/clusters',
  tags: ['clusters'],
  scope: WORKSPACE,
  permission: 'clusters',
  audit: 'cluster',
};

/** Clusters under /api/clusters, scoped to the workspace in x-workspace-id: no PUT, but actions. */
export function clusterRoutes(service: ClustersService): FastifyPluginAsyncZod {
  return async (app) => {
    const clusters = resourceRoutes(app, CLUSTERS);
    standardRoutes(clusters, service, {
      schemas: {
        query: clusterListQuerySchema,
        list: clusterListSchema,
        item: clusterSchema,
        created: clusterCreatedSchema,
        create: clusterCreateSchema,
      },
      summaries: {
        list: 'Clusters of the workspace, with their agent status and facts',
        get: 'One cluster',
        create: 'Configure a cluster; answers it and its attach manifest (the only time the token is shown)',
        remove: 'Detach and remove a cluster; its environments stay, without a cluster',
      },
      createdId: 'response.cluster.id',
      createDetail: ({ cluster, attach }) => ({
        name: cluster.name,
        type: cluster.type,
        limitedAgentPermission: cluster.limitedAgentPermission,
        tokenPrefix: attach.tokenPrefix,
      }),
    });
    clusters.action({
      name: 'attach',
      summary: 'A new attach manifest: a fresh agent token replaces the old one, whose agent is cut off',
      response: clusterAttachSchema,
      handler: async (ws, id, _body, request) => {
        const attach = await service.reattach(ws, id);
        request.audit.detail = { tokenPrefix: attach.tokenPrefix };
        return attach;
      },
    });
    clusters.action({
      name: 'namespaces',
      method: 'PUT',
      summary: 'Choose the namespaces whose logs are collected',
      body: clusterNamespacesUpdateSchema,
      response: clusterSchema,
      handler: (ws, id, { selectedNamespaces }, request) => {
        request.audit.detail = { selectedNamespaces };
        return service.setSelectedNamespaces(ws, id, selectedNamespaces);
      },
    });
    clusters.action({
      name: 'detach',
      permission: 'delete',
      summary: "Detach: revoke the agent's token and close its connection",
      response: clusterSchema,
      handler: (ws, id) => service.detach(ws, id),
    });
  };
}
