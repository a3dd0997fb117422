import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { AgentGateway } from './agent-gateway.js';
import { agentGatewayRoutes } from './agent-gateway-routes.js';
import { AgentGatewayStore } from './agent-gateway-store.js';
import { WsAgentGateway, type GatewayOptions } from './ws-agent-gateway.js';

export interface AgentGatewayFeatureDeps {
  db: AppDb;
  log: FastifyBaseLogger;
  options?: GatewayOptions;
}

export interface AgentGatewayExports {
  /** for the clusters feature, the Kubernetes executor and deployments */
  gateway: AgentGateway & { readonly connectedCount: number; flush(): Promise<void> };
}

/** The one place the agent gateway is wired: its store, the gateway and the connect route. */
export function createAgentGatewayFeature(deps: AgentGatewayFeatureDeps): Feature<AgentGatewayExports> {
  const store = new AgentGatewayStore(deps.db);
  const gateway = new WsAgentGateway(store, deps.log, deps.options);
  const plugin: FastifyPluginAsync = async (app) => {
    app.addHook('onClose', async () => {
      await gateway.close();
    });
    await app.register(agentGatewayRoutes(gateway, store));
  };
  return { name: 'agent-gateway', plugin, exports: { gateway } };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the agent gateway, decorated in app.ts for tests and features registered later */
    agentGateway: AgentGatewayExports['gateway'];
  }
}
