import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema, readyResponseSchema } from '@slipway/contracts';
import { PUBLIC } from '../../platform/auth/principal.js';
import type { SystemService } from './system-service.js';

export function systemRoutes(service: SystemService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/healthz',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['system'],
          summary: 'Liveness: the process is up',
          response: { 200: healthResponseSchema },
        },
      },
      async () => service.health(),
    );
    app.get(
      '/api/readyz',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['system'],
          summary: 'Readiness: the database is reachable and migrations are applied',
          response: { 200: readyResponseSchema, 503: readyResponseSchema },
        },
      },
      async (_request, reply) => {
        const r = await service.readiness();
        reply.header('Cache-Control', 'no-store');
        return reply.code(r.status === 'ready' ? 200 : 503).send(r);
      },
    );
  };
}
