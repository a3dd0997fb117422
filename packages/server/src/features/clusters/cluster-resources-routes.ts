import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clusterResourceDetailSchema,
  clusterResourceKindListSchema,
  clusterResourceListQuerySchema,
  clusterResourceQuerySchema,
  clusterResourceSummaryListSchema,
  idParamsSchema,
  podExecQuerySchema,
  podLogsQuerySchema,
} from '@slipway/contracts';
import { z } from 'zod';
import { actorIdOf, actorLabelOf, inWorkspace } from '../../platform/auth/principal.js';
import { resourceRoutes } from '../../platform/resource-routes.js';
import { CLUSTERS } from './clusters-routes.js';
import type { ClusterResourcesService } from './cluster-resources-service.js';
import type { PodStreams } from './pod-streams.js';
import type { ClustersService } from './clusters-service.js';

const { tags } = CLUSTERS;

/** The resources browser, pod logs and the exec terminal, all through the cluster's agent. */
export function clusterResourceRoutes(
  clusters: ClustersService,
  resources: ClusterResourcesService,
  streams: PodStreams,
): FastifyPluginAsyncZod {
  return async (app) => {
    const cluster = resourceRoutes(app, CLUSTERS);
    cluster.view({
      name: 'kinds',
      summary: 'The kinds the cluster serves that can be listed (discovery, through the agent)',
      response: clusterResourceKindListSchema,
      handler: async (ws, { id }) => resources.kinds(await clusters.require(ws, id)),
    });
    cluster.view({
      name: 'resources',
      summary: 'Objects of any kind in the cluster, in one namespace or all (through the agent)',
      querystring: clusterResourceListQuerySchema,
      response: clusterResourceSummaryListSchema,
      handler: async (ws, { id }, query) => ({
        rows: await resources.list(await clusters.require(ws, id), query),
      }),
    });
    cluster.view({
      name: 'resource',
      summary: "One object and its YAML (a Secret's values masked)",
      querystring: clusterResourceQuerySchema,
      response: clusterResourceDetailSchema,
      handler: async (ws, { id }, query) => resources.get(await clusters.require(ws, id), query),
    });
    cluster.view({
      name: 'logs',
      summary: "A pod container's log so far, as text (follow it over /api/ws/clusters/:id/logs)",
      querystring: podLogsQuerySchema,
      response: z.string(),
      handler: async (ws, { id }, query, reply) => {
        const text = await streams.logText(await clusters.require(ws, id), query);
        return reply.type('text/plain; charset=utf-8').send(text);
      },
    });
    app.get(
      '/api/ws/clusters/:id/logs',
      {
        websocket: true,
        config: { access: inWorkspace('clusters:view') },
        schema: {
          tags,
          summary:
            "WebSocket: a pod container's log, followed (frames: podStreamFrameSchema). Credentials may come as Sec-WebSocket-Protocol entries",
          params: idParamsSchema,
          querystring: podLogsQuerySchema,
        },
      },
      (socket, request) => {
        void streams.followLogs(socket, request.workspaceId!, request.params.id, request.query);
      },
    );
    app.get(
      '/api/ws/clusters/:id/exec',
      {
        websocket: true,
        config: { access: inWorkspace('clusters:execute') },
        schema: {
          tags,
          summary:
            'WebSocket: a terminal in a pod container (send podExecInputSchema, receive podStreamFrameSchema); audited',
          params: idParamsSchema,
          querystring: podExecQuerySchema,
        },
      },
      (socket, request) => {
        const p = request.principal;
        void streams.exec(socket, request.workspaceId!, request.params.id, request.query, {
          organisationId: p?.organisationId ?? null,
          actorType: p?.kind ?? 'anonymous',
          actorId: actorIdOf(p),
          actorLabel: actorLabelOf(p),
          ip: request.ip ?? null,
          userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
        });
      },
    );
  };
}
