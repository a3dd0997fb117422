import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  applicationCreateSchema,
  applicationDetailSchema,
  applicationListQuerySchema,
  applicationListSchema,
  applicationUpdateSchema,
  k8sServiceTypeListSchema,
  listQuerySchema,
} from '@slipway/contracts';
import { inWorkspace } from '../../platform/auth/principal.js';
import { resourceRoutes, WORKSPACE } from '../../platform/resource-routes.js';
import { routes } from '../../platform/routes.js';
import { standardRoutes } from '../../platform/standard-routes.js';
import type { ApplicationsService } from './applications-service.js';

/** Applications (the microservice library) and the Service types they may use (spec §7). */
export function applicationRoutes(service: ApplicationsService): FastifyPluginAsyncZod {
  return async (app) => {
    routes(app, ['applications']).get('/api/admin/app/k8servicetypes', {
      summary: 'The Kubernetes Service types an application may use (spec: _end=100, _order, _sort, _start)',
      access: inWorkspace('applications:view'),
      querystring: listQuerySchema,
      response: k8sServiceTypeListSchema,
      handler: (request) => service.serviceTypes(request.query),
    });
    const applications = resourceRoutes(app, {
      path: '/api/applications',
      tags: ['applications'],
      scope: WORKSPACE,
      permission: 'applications',
      audit: 'application',
    });
    standardRoutes(applications, service, {
      schemas: {
        query: applicationListQuerySchema,
        list: applicationListSchema,
        item: applicationDetailSchema,
        create: applicationCreateSchema,
        update: applicationUpdateSchema,
      },
      summaries: {
        list: 'Applications of the workspace with their health in each environment',
        get: 'One application: its environments and health, its pipeline’s runs and its image’s tags',
        create: 'Create an application',
        update: 'Change an application; name and namespace stay, omitted fields are kept',
        remove: 'Delete an application; its repository, pipeline, image and workloads stay',
      },
      createDetail: ({ name, image, serviceType, port, namespace, environments }) => ({
        name,
        image,
        serviceType,
        port,
        namespace,
        environments: environments.map((e) => e.environmentName),
      }),
      updateDetail: (body) => ({ ...body }),
    });
  };
}
