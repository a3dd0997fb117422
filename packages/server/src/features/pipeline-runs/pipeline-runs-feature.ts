import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { PipelineDefinitionLoader } from '../pipeline-catalogue/pipeline-definition-loader.js';
import type { Executor } from '../pipelines/executor/executor.js';
import { RunEngine, type RunEngineOptions } from './engine.js';
import { PgLogBridge } from './logs/log-bridge.js';
import { LogHub } from './logs/log-hub.js';
import { LogPublisher } from './logs/log-publisher.js';
import { LogStore } from './logs/log-store.js';
import type { LogStreamSource } from './logs/log-stream.js';
import { pipelineRunsRoutes } from './pipeline-runs-routes.js';
import { RunDocumentStore, withAdhocPipelines } from './run-document-store.js';
import {
  catalogueDefinitions,
  withConfigMaps,
  type ConfigMapSource,
  type SecretSource,
} from './run-sources.js';
import { PipelineRunsService } from './pipeline-runs-service.js';
import { RunStore } from './run-store.js';
import { TaskStore } from './task-store.js';

export interface PipelineRunsFeatureDeps {
  db: AppDb;
  /** where the engine and the live logs report their errors */
  log: Pick<FastifyBaseLogger, 'error'>;
  /** The pipeline catalogue's loader: how runs read their pipeline. */
  loader: PipelineDefinitionLoader;
  /** The secrets feature's reader: how steps get secret values. */
  secrets: SecretSource;
  /** The config maps feature's reader: config map env, envFrom and workspaces. */
  configMaps?: ConfigMapSource;
  dataDir: string;
  /** False: routes only, no reconcile loop in this process (SLIPWAY_ENGINE=off). */
  engine?: boolean;
  /** The local executor (local-executor-factory.ts; the only place one is made). */
  executor: Executor;
  engineOptions?: Partial<RunEngineOptions>;
  /** PostgreSQL: live logs of runs driven by other processes arrive by LISTEN/NOTIFY. */
  databaseUrl?: string | undefined;
}

export interface PipelineRunsExports {
  /** for webhooks and schedules (their runs), and external pipelines (beforeCreate) */
  service: PipelineRunsService;
  /** undefined when the engine is off in this process */
  engine: RunEngine | undefined;
  hub: LogHub;
}

/**
 * The one place runs are wired: stores, service, routes and the engine (LocalExecutor with its
 * scratch under the data directory). The engine starts once the app is ready and stops on close.
 */
export function createPipelineRunsFeature(deps: PipelineRunsFeatureDeps): Feature<PipelineRunsExports> {
  const runs = new RunStore(deps.db);
  const tasks = new TaskStore(deps.db);
  const logStore = new LogStore(deps.db);
  const enabled = deps.engine ?? true;
  // runs of ad-hoc pipelines (from run documents) read the text recorded with them
  const definitions = withAdhocPipelines(catalogueDefinitions(deps.loader), runs, tasks);
  const instanceId = randomUUID();
  const hub = new LogHub();
  const onLogError = (error: unknown) => deps.log.error({ err: error }, 'pipeline run logs');
  // On PostgreSQL other processes may drive the runs a socket here follows: LISTEN/NOTIFY.
  const bridge = deps.databaseUrl
    ? new PgLogBridge(deps.databaseUrl, hub, instanceId, onLogError)
    : undefined;
  const logs = new LogPublisher(logStore, hub, bridge ? instanceId : null);
  const engine = enabled
    ? new RunEngine({
        runs,
        tasks,
        executor: deps.executor,
        definitions,
        // the engine hands its drivers `secrets` only: the config maps ride along with them
        secrets: deps.configMaps ? withConfigMaps(deps.secrets, deps.configMaps) : deps.secrets,
        dataDir: deps.dataDir,
        instanceId,
        logs,
        onError: (error, runId) => deps.log.error({ err: error, runId }, 'pipeline run engine'),
        ...deps.engineOptions,
      })
    : undefined;
  const service = new PipelineRunsService(
    runs,
    tasks,
    logStore,
    () => engine?.notify(),
    definitions,
    new RunDocumentStore(deps.db),
  );
  const source: LogStreamSource = {
    taskRuns: (runId) => tasks.taskRunNames(runId),
    chunksAfter: (runId, afterId, limit) => logStore.chunksAfter(runId, afterId, limit),
    runStatus: (runId) => runs.status(runId),
  };
  // one process (PGlite): every chunk and end reaches the sockets through the hub, so their
  // re-read is only a safety net; across processes it also covers a lost NOTIFY
  const routes = pipelineRunsRoutes(service, {
    hub,
    source,
    onError: onLogError,
    pollMs: bridge ? 2000 : 10_000,
  });
  const plugin: FastifyPluginAsync = async (app) => {
    if (bridge) {
      app.addHook('onReady', async () => bridge.start());
      app.addHook('onClose', async () => bridge.stop());
    }
    if (engine) {
      app.addHook('onReady', async () => {
        // embedded database: this process holds the data directory, so no other drives runs and the
        // runs of one that died (a crash, kill -9) are taken over now, re-attaching to their steps
        if (!deps.databaseUrl) await runs.expireLeases();
        engine.start();
      });
      app.addHook('onClose', async () => engine.stop());
    }
    await app.register(routes);
  };
  return { name: 'pipeline-runs', plugin, exports: { service, engine, hub } };
}
