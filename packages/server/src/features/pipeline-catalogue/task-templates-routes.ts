import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  taskTemplateCreateSchema,
  taskTemplateListSchema,
  taskTemplateSchema,
  taskTemplateUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
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
    templates.list({
      summary: 'Built-in and workspace task templates',
      response: taskTemplateListSchema,
      handler: (ws) => service.list(ws),
    });
    templates.get({
      summary: 'One task template',
      response: taskTemplateSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    templates.create({
      summary: 'Add a Tekton Task as a task template (validated)',
      body: taskTemplateCreateSchema,
      response: taskTemplateSchema,
      handler: (ws, body) => service.create(ws, body),
      detail: (created) => ({ name: created.name }),
    });
    templates.update({
      summary: 'Change a workspace task template (built-ins are read-only)',
      body: taskTemplateUpdateSchema,
      response: taskTemplateSchema,
      handler: (ws, id, body) => service.update(ws, id, body),
    });
    templates.remove({
      summary: 'Delete a workspace task template (built-ins are read-only)',
      handler: (ws, id) => service.remove(ws, id),
    });
  };
}
