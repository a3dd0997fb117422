import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSchema } from '@slipway/contracts';
import { holds } from '../../platform/auth/grants.js';
import { inWorkspace } from '../../platform/auth/principal.js';
import type { AppDb } from '../../platform/database/database.js';
import type { Feature } from '../../platform/feature.js';
import { routes } from '../../platform/routes.js';
import type { ApplicationsService } from '../applications/applications-service.js';
import { DashboardService } from './dashboard-service.js';
import { DashboardStore } from './dashboard-store.js';

export interface DashboardFeatureDeps {
  db: AppDb;
  applications: Pick<ApplicationsService, 'list'>;
}

/** The one place the dashboard is wired: `GET /api/dashboard`, for any member of the workspace. */
export function createDashboardFeature(deps: DashboardFeatureDeps): Feature<{ service: DashboardService }> {
  const service = new DashboardService(new DashboardStore(deps.db), deps.applications);
  const plugin: FastifyPluginAsyncZod = async (app) => {
    routes(app, ['dashboard']).get('/api/dashboard', {
      summary: 'What the workspace’s dashboard shows: getting started, then applications, runs and clusters',
      access: inWorkspace('workspace:view'),
      response: dashboardSchema,
      handler: (request) => service.get(request.workspaceId!, (p) => holds(request.grants ?? [], p)),
    });
  };
  return { name: 'dashboard', plugin, exports: { service } };
}
