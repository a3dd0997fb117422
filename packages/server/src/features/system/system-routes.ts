import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema, readyResponseSchema } from '@slipway/contracts';
import { PUBLIC } from '../../platform/auth/principal.js';
import { routes } from '../../platform/routes.js';
import type { SystemService } from './system-service.js';

export function systemRoutes(service: SystemService): FastifyPluginAsyncZod {
  return async (app) => {
    const system = routes(app, ['system']);
    system.get('/api/healthz', {
      summary: 'Liveness: the process is up',
      access: PUBLIC,
      response: healthResponseSchema,
      handler: async () => service.health(),
    });
    system.get('/api/readyz', {
      summary: 'Readiness: the database is reachable and migrations are applied',
      access: PUBLIC,
      response: { 200: readyResponseSchema, 503: readyResponseSchema },
      handler: async (_request, reply) => {
        const r = await service.readiness();
        reply.header('Cache-Control', 'no-store');
        return reply.code(r.status === 'ready' ? 200 : 503).send(r);
      },
    });
  };
}
