import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  scheduleCreateSchema,
  scheduleListQuerySchema,
  scheduleListSchema,
  scheduleSchema,
  scheduleUpdateSchema,
} from '@slipway/contracts';
import { actorIdOf, inWorkspace } from '../../platform/auth/principal.js';
import { withTotalCount } from '../../platform/database/paging.js';
import type { SchedulesService } from './schedules-service.js';

const tags = ['schedules'];

/** Schedule CRUD under /api/schedules, scoped to the workspace in x-workspace-id. */
export function scheduleRoutes(service: SchedulesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/schedules',
      {
        config: { access: inWorkspace('schedules:view') },
        schema: {
          tags,
          summary: 'Schedules of the workspace, with their next and last runs',
          querystring: scheduleListQuerySchema,
          response: { 200: scheduleListSchema },
        },
      },
      async (request, reply) => {
        const { rows, total } = await service.list(request.workspaceId!, request.query);
        return withTotalCount(reply, rows, total);
      },
    );
    app.get(
      '/api/schedules/:id',
      {
        config: { access: inWorkspace('schedules:view') },
        schema: { tags, summary: 'One schedule', params: idParamsSchema, response: { 200: scheduleSchema } },
      },
      async (request) => service.get(request.workspaceId!, request.params.id),
    );
    app.post(
      '/api/schedules',
      {
        config: {
          access: inWorkspace('schedules:create'),
          auditAction: 'schedule.create',
          auditTarget: { type: 'schedule', id: 'response.id' },
        },
        schema: {
          tags,
          summary:
            'Create a schedule: hourly at a minute, daily at a time, weekly at a day and time, or cron',
          body: scheduleCreateSchema,
          response: { 201: scheduleSchema },
        },
      },
      async (request, reply) => {
        const by = actorIdOf(request.principal);
        const created = await service.create(request.workspaceId!, request.body, by);
        request.audit.detail = {
          name: created.name,
          expression: created.expression,
          timeZone: created.timeZone,
        };
        return reply.code(201).send(created);
      },
    );
    app.put(
      '/api/schedules/:id',
      {
        config: {
          access: inWorkspace('schedules:edit'),
          auditAction: 'schedule.update',
          auditTarget: { type: 'schedule', id: 'params.id' },
        },
        schema: {
          tags,
          summary: 'Change a schedule; omitted fields keep their values',
          params: idParamsSchema,
          body: scheduleUpdateSchema,
          response: { 200: scheduleSchema },
        },
      },
      async (request) => service.update(request.workspaceId!, request.params.id, request.body),
    );
    app.delete(
      '/api/schedules/:id',
      {
        config: {
          access: inWorkspace('schedules:delete'),
          auditAction: 'schedule.delete',
          auditTarget: { type: 'schedule', id: 'params.id' },
        },
        schema: { tags, summary: 'Delete a schedule', params: idParamsSchema, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.remove(request.workspaceId!, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
