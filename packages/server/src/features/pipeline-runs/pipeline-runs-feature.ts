import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Keys } from '../../platform/keys.js';
import type { Executor } from '../pipelines/executor/executor.js';
import { LocalExecutor } from '../pipelines/executor/local-executor.js';
import { RunEngine, type RunEngineOptions } from './engine.js';
import { pipelineRunsRoutes } from './pipeline-runs-routes.js';
import { PipelineRunsService } from './pipeline-runs-service.js';
import { RunStore } from './run-store.js';
import { TaskStore } from './task-store.js';

export interface PipelineRunsDeps {
  db: AppDb;
  keys: Keys;
  dataDir: string;
  /** False: routes only, no reconcile loop in this process (SLIPWAY_ENGINE=off). */
  engine?: boolean;
  executor?: Executor;
  engineOptions?: Partial<RunEngineOptions>;
}

/**
 * The one place runs are wired: stores, service, routes and the engine (LocalExecutor with its
 * scratch under the data directory). The engine starts once the app is ready and stops on close.
 */
export function pipelineRunsFeature(app: FastifyInstance, deps: PipelineRunsDeps) {
  const runs = new RunStore(deps.db);
  const tasks = new TaskStore(deps.db);
  const enabled = deps.engine ?? true;
  const engine = enabled
    ? new RunEngine({
        runs,
        tasks,
        executor: deps.executor ?? new LocalExecutor({ scratchRoot: path.join(deps.dataDir, 'scratch') }),
        decrypt: (sealed) => deps.keys.decrypt(sealed),
        dataDir: deps.dataDir,
        onError: (error, runId) => app.log.error({ err: error, runId }, 'pipeline run engine'),
        ...deps.engineOptions,
      })
    : undefined;
  if (engine) {
    app.addHook('onReady', async () => engine.start());
    app.addHook('onClose', async () => engine.stop());
  }
  const service = new PipelineRunsService(runs, tasks, () => engine?.notify());
  return { routes: pipelineRunsRoutes(service), engine, service };
}
