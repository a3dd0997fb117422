import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { runtimeSettingsSchema } from '@slipway/contracts';
import { PUBLIC } from '../../platform/auth/principal.js';
import { routes } from '../../platform/routes.js';
import type { RuntimeSettingsService } from './runtime-settings-service.js';

/** GET {origin}/config/config.json — public: the app reads it before anyone signs in. */
export function runtimeSettingsRoutes(service: RuntimeSettingsService): FastifyPluginAsyncZod {
  return async (app) => {
    routes(app, ['system']).get('/config/config.json', {
      summary: 'Runtime settings read by the web app at start-up',
      access: PUBLIC,
      response: runtimeSettingsSchema,
      handler: async (_request, reply) => {
        reply.header('Cache-Control', 'no-cache');
        return service.get();
      },
    });
  };
}
