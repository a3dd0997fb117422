import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  taskTemplateCreateSchema,
  taskTemplateListSchema,
  taskTemplateSchema,
  taskTemplateUpdateSchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import type { TaskTemplatesService } from './task-templates-service.js';

const tags = ['task templates'];
const targetType = 'taskTemplate';

export function taskTemplateRoutes(service: TaskTemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/tasks',
      {
        config: { access: inWorkspace('taskTemplates:view') },
        schema: {
          tags,
          summary: 'Built-in and workspace task templates',
          response: { 200: taskTemplateListSchema },
        },
      },
      async (request) => service.list(request.workspaceId!),
    );
    app.get(
      '/api/tasks/:id',
      {
        config: { access: inWorkspace('taskTemplates:view') },
        schema: {
          tags,
          summary: 'One task template',
          params: idParamsSchema,
          response: { 200: taskTemplateSchema },
        },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/tasks',
      {
        config: {
          access: inWorkspace('taskTemplates:create'),
          auditAction: 'taskTemplate.create',
          auditTarget: { type: targetType, id: 'response.id' },
        },
        schema: {
          tags,
          summary: 'Add a Tekton Task as a task template (validated)',
          body: taskTemplateCreateSchema,
          response: { 201: taskTemplateSchema },
        },
      },
      async (request, reply) => {
        const created = await service.create(request.workspaceId!, request.body);
        request.audit.detail = { name: created.name };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/tasks/:id',
      {
        config: {
          access: inWorkspace('taskTemplates:edit'),
          auditAction: 'taskTemplate.update',
          auditTarget: { type: targetType, id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a workspace task template (built-ins are read-only)',
          params: idParamsSchema,
          body: taskTemplateUpdateSchema,
          response: { 200: taskTemplateSchema },
        },
      },
      async (request) => service.update(request.workspaceId!, request.params.id, request.body),
    );
    app.delete(
      '/api/tasks/:id',
      {
        config: {
          access: inWorkspace('taskTemplates:delete'),
          auditAction: 'taskTemplate.delete',
          auditTarget: { type: targetType, id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Delete a workspace task template (built-ins are read-only)',
          params: idParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
