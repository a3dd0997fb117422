import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import type { PipelineDefinitionLoader } from '../pipeline-catalogue/pipeline-definition-loader.js';
import type { PipelineRunsService } from '../pipeline-runs/pipeline-runs-service.js';
import { resolvePipelineParams } from '../pipelines/definition/index.js';
import { Scheduler, type SchedulerOptions } from './scheduler.js';
import { scheduleRoutes } from './schedules-routes.js';
import { SchedulesService, type ParamsCheck } from './schedules-service.js';
import { SqlSchedulesStore } from './schedules-store.js';

export interface SchedulesFeatureDeps {
  db: AppDb;
  /** where a schedule that could not start its run is told */
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** the pipeline catalogue's loader: a schedule's params are checked against its pipeline */
  loader: Pick<PipelineDefinitionLoader, 'load'>;
  /** the pipeline runs feature's service */
  runs: Pick<PipelineRunsService, 'create'>;
  /** False: routes only, no scheduler in this process (SLIPWAY_ENGINE=off). */
  engine?: boolean;
  scheduler?: Partial<Pick<SchedulerOptions, 'now' | 'tickMs'>>;
}

export interface SchedulesExports {
  service: SchedulesService;
  scheduler: Scheduler;
}

/**
 * The one place schedules are wired: store, service, routes, and the scheduler, which starts
 * once the app is ready and stops on close (not at all when the engine is off in this process).
 */
export function createSchedulesFeature(deps: SchedulesFeatureDeps): Feature<SchedulesExports> {
  const store = new SqlSchedulesStore(deps.db);
  const checkParams: ParamsCheck = async (workspaceId, pipelineId, params) => {
    const loaded = await deps.loader.load(workspaceId, pipelineId);
    const resolved = resolvePipelineParams(loaded.pipeline, params);
    return resolved.ok ? [] : resolved.errors.map((e) => ({ path: e.path, message: e.message }));
  };
  const service = new SchedulesService(store, checkParams, deps.scheduler?.now);
  const scheduler = new Scheduler({
    store,
    ...deps.scheduler,
    start: (schedule) => {
      const trigger = { kind: 'schedule', id: schedule.id, by: schedule.name };
      const request = {
        pipelineId: schedule.pipelineId,
        params: schedule.params as Record<string, string>,
        timeoutHours: schedule.timeoutHours,
        workspaces: [],
      };
      return deps.runs.create(schedule.workspaceId, request, trigger);
    },
    onError: (err, scheduleId) => deps.log.warn({ err, scheduleId }, 'schedule could not start its run'),
  });
  const routes = scheduleRoutes(service);
  const plugin: FastifyPluginAsync = async (app) => {
    if (deps.engine ?? true) {
      app.addHook('onReady', async () => scheduler.start());
      app.addHook('onClose', async () => scheduler.stop());
    }
    await app.register(routes);
  };
  return { name: 'schedules', plugin, exports: { service, scheduler } };
}
