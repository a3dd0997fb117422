import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { PUBLIC } from './auth/principal.js';
import { VERSION } from './version.js';

/** OpenAPI generated from the routes' zod schemas, at /api/openapi.json, with a UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Slipway API',
        description: 'DevOps and CI/CD platform for deploying microservices to Kubernetes clusters.',
        version: VERSION,
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'authorization' },
          workspace: { type: 'apiKey', in: 'header', name: 'x-workspace-id' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { config: { access: PUBLIC }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
}
