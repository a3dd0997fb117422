import type { FastifyPluginAsync } from 'fastify';
import { AGENT_DEFAULT_HEARTBEAT_SECONDS } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { VERSION } from '../../platform/version.js';
import type { AuditRecorder } from '../../platform/audit-recorder.js';
import type { Feature } from '../../platform/feature.js';
import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { clusterResourceRoutes } from './cluster-resources-routes.js';
import { ClusterResourcesService } from './cluster-resources-service.js';
import { clusterRoutes } from './clusters-routes.js';
import { PodStreams } from './pod-streams.js';
import { ClustersService } from './clusters-service.js';
import { SqlClustersStore } from './clusters-store.js';
import { HeartbeatSweeper, type SweeperLog } from './heartbeat-sweeper.js';

export interface ClustersExports {
  service: ClustersService;
  /** the clusters' rows: for environments */
  store: SqlClustersStore;
  sweeper: HeartbeatSweeper;
}

export interface ClustersFeatureDeps {
  db: AppDb;
  /** the address agents dial out to */
  publicUrl: string;
  gateway: AgentGateway | null;
  /** the audit feature's store: pod log and shell sessions are recorded */
  audit: AuditRecorder;
  /** the agent image in the attach YAML (SLIPWAY_AGENT_IMAGE); default slipway/agent:<version> */
  agentImage?: string;
  /** how often the missed-heartbeat sweep runs (default 30 s); each agent's own interval counts */
  heartbeatIntervalMs?: number;
  /** run the missed-heartbeat sweep on a timer (default true) */
  sweep?: boolean;
}

/** The one place clusters are wired: routes, the attach manifests and the missed-heartbeat sweep. */
export function createClustersFeature(deps: ClustersFeatureDeps): Feature<ClustersExports> {
  const store = new SqlClustersStore(deps.db);
  const image = deps.agentImage ?? '';
  const service = new ClustersService(store, {
    publicUrl: deps.publicUrl,
    agentImage: image || `slipway/agent:${VERSION}`,
    gateway: deps.gateway,
  });
  // The sweep logs through the app's logger once the plugin is registered.
  let log: SweeperLog = { info: () => undefined, error: () => undefined };
  const sweeper = new HeartbeatSweeper(
    store,
    deps.heartbeatIntervalMs ?? AGENT_DEFAULT_HEARTBEAT_SECONDS * 1000,
    { info: (o, m) => log.info(o, m), error: (o, m) => log.error(o, m) },
  );
  const resources = deps.gateway ? new ClusterResourcesService(deps.gateway) : null;
  const plugin: FastifyPluginAsync = async (app) => {
    log = app.log;
    await app.register(clusterRoutes(service));
    if (deps.gateway && resources) {
      const streams = new PodStreams(deps.gateway, service, resources, deps.audit);
      await app.register(clusterResourceRoutes(service, resources, streams));
    }
    if (deps.sweep !== false) {
      app.addHook('onReady', async () => sweeper.start());
      app.addHook('onClose', async () => sweeper.stop());
    }
  };
  return { name: 'clusters', plugin, exports: { service, store, sweeper } };
}
