import type { FastifyPluginAsync } from 'fastify';
import type { AppDb } from '../../platform/database/database.js';
import { PipelineDefinitionLoader } from './pipeline-definition-loader.js';
import { pipelineRoutes } from './pipelines-routes.js';
import { PipelinesService } from './pipelines-service.js';
import { PipelinesStore } from './pipelines-store.js';
import { seedBuiltInTasks } from './seed-built-in-tasks.js';
import { taskTemplateRoutes } from './task-templates-routes.js';
import { TaskTemplatesService } from './task-templates-service.js';
import { TaskTemplatesStore } from './task-templates-store.js';

export interface PipelineCatalogue {
  pipelines: PipelinesService;
  tasks: TaskTemplatesService;
  /** for the run engine: a stored pipeline version, parsed, with its Tasks */
  loader: PipelineDefinitionLoader;
  /** pipelines, templates and task template routes; seeds the built-in tasks first */
  plugin: FastifyPluginAsync;
}

/** The one place pipelines, pipeline templates and task templates are wired. */
export function createPipelineCatalogue(deps: { db: AppDb }): PipelineCatalogue {
  const taskStore = new TaskTemplatesStore(deps.db);
  const tasks = new TaskTemplatesService(taskStore);
  const store = new PipelinesStore(deps.db);
  const pipelines = new PipelinesService(store, tasks);
  const loader = new PipelineDefinitionLoader(store, tasks);
  const plugin: FastifyPluginAsync = async (app) => {
    await seedBuiltInTasks(taskStore);
    await app.register(taskTemplateRoutes(tasks));
    await app.register(pipelineRoutes(pipelines, 'pipeline'));
    await app.register(pipelineRoutes(pipelines, 'template'));
  };
  return { pipelines, tasks, loader, plugin };
}
