import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  taskTemplateCreateSchema,
  taskTemplateListSchema,
  taskTemplateSchema,
  taskTemplateUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { TaskTemplatesService } from './task-templates-service.js';

export function taskTemplateRoutes(service: TaskTemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    const templates = resourceRoutes(app, {
      path: '/api/tasks',
      tags: ['task templates'],
      scope: WORKSPACE,
      permission: 'taskTemplates',
      audit: 'taskTemplate',
    });
    standardRoutes(templates, service, {
      schemas: {
        list: taskTemplateListSchema,
        item: taskTemplateSchema,
        create: taskTemplateCreateSchema,
        update: taskTemplateUpdateSchema,
      },
      summaries: {
        list: 'Built-in and workspace task templates',
        get: 'One task template',
        create: 'Add a Tekton Task as a task template (validated)',
        update: 'Change a workspace task template (built-ins are read-only)',
        remove: 'Delete a workspace task template (built-ins are read-only)',
      },
      createDetail: (created) => ({ name: created.name }),
    });
  };
}
