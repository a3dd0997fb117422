import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  scheduleCreateSchema,
  scheduleListQuerySchema,
  scheduleListSchema,
  scheduleSchema,
  scheduleUpdateSchema,
} from '@slipway/contracts';
import { actorIdOf } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import type { SchedulesService } from './schedules-service.js';

/** Schedule CRUD under /api/schedules, scoped to the workspace in x-workspace-id. */
export function scheduleRoutes(service: SchedulesService): FastifyPluginAsyncZod {
  return async (app) => {
    const schedules = resourceRoutes(app, {
      path: '/api/schedules',
      tags: ['schedules'],
      scope: WORKSPACE,
      permission: 'schedules',
      audit: 'schedule',
    });
    schedules.list({
      summary: 'Schedules of the workspace, with their next and last runs',
      querystring: scheduleListQuerySchema,
      response: scheduleListSchema,
      handler: (ws, query) => service.list(ws, query),
    });
    schedules.get({
      summary: 'One schedule',
      response: scheduleSchema,
      handler: (ws, id) => service.get(ws, id),
    });
    schedules.create({
      summary: 'Create a schedule: hourly at a minute, daily at a time, weekly at a day and time, or cron',
      body: scheduleCreateSchema,
      response: scheduleSchema,
      handler: (ws, body, request) => service.create(ws, body, actorIdOf(request.principal)),
      detail: ({ name, expression, timeZone }) => ({ name, expression, timeZone }),
    });
    schedules.update({
      summary: 'Change a schedule; omitted fields keep their values',
      body: scheduleUpdateSchema,
      response: scheduleSchema,
      handler: (ws, id, body) => service.update(ws, id, body),
    });
    schedules.remove({ summary: 'Delete a schedule', handler: (ws, id) => service.remove(ws, id) });
  };
}
