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
import { withTotalCount } from '../../platform/database/paging.js';
import type { ClusterResourcesService } from './cluster-resources-service.js';
import type { PodStreams } from './pod-streams.js';
import type { ClustersService } from './clusters-service.js';

const tags = ['clusters'];

/** The resources browser, pod logs and the exec terminal, all through the cluster's agent. */
export function clusterResourceRoutes(
  clusters: ClustersService,
  resources: ClusterResourcesService,
  streams: PodStreams,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/clusters/:id/kinds',
      {
        config: { access: inWorkspace('clusters:view') },
        schema: {
          tags,
          summary: 'The kinds the cluster serves that can be listed (discovery, through the agent)',
          params: idParamsSchema,
          response: { 200: clusterResourceKindListSchema },
        },
      },
      async (request) => resources.kinds(await clusters.require(request.workspaceId!, request.params.id)),
    );
    app.get(
      '/api/clusters/:id/resources',
      {
        config: { access: inWorkspace('clusters:view') },
        schema: {
          tags,
          summary: 'Objects of any kind in the cluster, in one namespace or all (through the agent)',
          params: idParamsSchema,
          querystring: clusterResourceListQuerySchema,
          response: { 200: clusterResourceSummaryListSchema },
        },
      },
      async (request, reply) => {
        const cluster = await clusters.require(request.workspaceId!, request.params.id);
        const rows = await resources.list(cluster, request.query);
        return withTotalCount(reply, rows);
      },
    );
    app.get(
      '/api/clusters/:id/resource',
      {
        config: { access: inWorkspace('clusters:view') },
        schema: {
          tags,
          summary: "One object and its YAML (a Secret's values masked)",
          params: idParamsSchema,
          querystring: clusterResourceQuerySchema,
          response: { 200: clusterResourceDetailSchema },
        },
      },
      async (request) =>
        resources.get(await clusters.require(request.workspaceId!, request.params.id), request.query),
    );
    app.get(
      '/api/clusters/:id/logs',
      {
        config: { access: inWorkspace('clusters:view') },
        schema: {
          tags,
          summary: "A pod container's log so far, as text (follow it over /api/ws/clusters/:id/logs)",
          params: idParamsSchema,
          querystring: podLogsQuerySchema,
          response: { 200: z.string() },
        },
      },
      async (request, reply) => {
        const cluster = await clusters.require(request.workspaceId!, request.params.id);
        const text = await streams.logText(cluster, request.query);
        return reply.type('text/plain; charset=utf-8').send(text);
      },
    );
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
