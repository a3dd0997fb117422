import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { PipelineDefinitionLoader } from './pipeline-definition-loader.js';
import { pipelineRoutes } from './pipelines-routes.js';
import { PipelinesService } from './pipelines-service.js';
import { SqlPipelinesStore } from './pipelines-store.js';
import { seedBuiltInTasks } from './seed-built-in-tasks.js';
import { taskTemplateRoutes } from './task-templates-routes.js';
import { TaskTemplatesService } from './task-templates-service.js';
import { SqlTaskTemplatesStore } from './task-templates-store.js';

export interface PipelineCatalogueFeatureDeps {
  db: AppDb;
}

export interface PipelineCatalogueExports {
  pipelines: PipelinesService;
  /** the pipelines' rows: for external pipelines */
  store: SqlPipelinesStore;
  tasks: TaskTemplatesService;
  /** for the run engine: a stored pipeline version, parsed, with its Tasks */
  loader: PipelineDefinitionLoader;
}

/**
 * The one place pipelines, pipeline templates and task templates are wired; its plugin seeds the
 * built-in tasks before their routes.
 */
export function createPipelineCatalogueFeature(
  deps: PipelineCatalogueFeatureDeps,
): Feature<PipelineCatalogueExports> {
  const taskStore = new SqlTaskTemplatesStore(deps.db);
  const tasks = new TaskTemplatesService(taskStore);
  const store = new SqlPipelinesStore(deps.db);
  const pipelines = new PipelinesService(store, tasks);
  const loader = new PipelineDefinitionLoader(store, tasks);
  const plugin: FastifyPluginAsync = async (app) => {
    await seedBuiltInTasks(taskStore);
    await app.register(taskTemplateRoutes(tasks));
    await app.register(pipelineRoutes(pipelines, 'pipeline'));
    await app.register(pipelineRoutes(pipelines, 'template'));
  };
  return { name: 'pipeline-catalogue', plugin, exports: { pipelines, store, tasks, loader } };
}
