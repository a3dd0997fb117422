import { AGENT_CONNECT_PATH } from '@slipway/contracts';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AgentCluster, AgentGatewayStore } from './agent-gateway-store.js';
import type { WsAgentGateway } from './ws-agent-gateway.js';
import { PUBLIC } from '../../platform/auth/principal.js';
import { NotAuthenticatedError } from '../../platform/errors.js';
import { hashToken } from '../../platform/keys.js';
import { tokenFromHeader } from '../../platform/auth/tokens.js';

export const AGENT_TOKEN_REFUSED = 'The cluster token is not valid or was revoked';

declare module 'fastify' {
  interface FastifyRequest {
    agentCluster?: AgentCluster;
  }
}

/**
 * `GET /api/agent/connect` (WebSocket): the agents dial in here. Access is public to the session
 * check because the agent is authenticated by its cluster token, checked before the upgrade: an
 * unknown or revoked token answers 401 and no WebSocket is opened.
 */
export function agentGatewayRoutes(gateway: WsAgentGateway, store: AgentGatewayStore): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.get(
      AGENT_CONNECT_PATH,
      {
        websocket: true,
        config: { access: PUBLIC },
        schema: { hide: true },
        preValidation: async (request) => {
          const header = request.headers.authorization;
          const token = tokenFromHeader(typeof header === 'string' ? header : undefined);
          if (!token)
            throw new NotAuthenticatedError('The cluster token is required (Authorization: Bearer …)');
          const cluster = await store.clusterByTokenHash(hashToken(token));
          if (!cluster) throw new NotAuthenticatedError(AGENT_TOKEN_REFUSED);
          request.agentCluster = cluster;
        },
      },
      (socket, request) => {
        const cluster = request.agentCluster;
        if (!cluster) {
          socket.close(4001, AGENT_TOKEN_REFUSED);
          return;
        }
        gateway.accept(socket, cluster);
      },
    );
  };
}
