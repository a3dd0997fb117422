import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  scheduleCreateSchema,
  scheduleListQuerySchema,
  scheduleListSchema,
  scheduleSchema,
  scheduleUpdateSchema,
} from '@slipway/contracts';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
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
    standardRoutes(schedules, service, {
      schemas: {
        query: scheduleListQuerySchema,
        list: scheduleListSchema,
        item: scheduleSchema,
        create: scheduleCreateSchema,
        update: scheduleUpdateSchema,
      },
      summaries: {
        list: 'Schedules of the workspace, with their next and last runs',
        get: 'One schedule',
        create: 'Create a schedule: hourly at a minute, daily at a time, weekly at a day and time, or cron',
        update: 'Change a schedule; omitted fields keep their values',
        remove: 'Delete a schedule',
      },
      createDetail: ({ name, expression, timeZone }) => ({ name, expression, timeZone }),
    });
  };
}
