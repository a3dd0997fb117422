import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { runtimeSettingsRoutes } from './features/runtime-settings/runtime-settings-routes.js';
import { RuntimeSettingsService } from './features/runtime-settings/runtime-settings-service.js';
import { SqlInstanceStore } from './features/system/instance-store.js';
import { systemRoutes } from './features/system/system-routes.js';
import { SystemService } from './features/system/system-service.js';
import type { ServerConfig } from './platform/config.js';
import type { Database } from './platform/database/database.js';
import { registerErrorHandler } from './platform/error-handler.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { registerWebApp } from './platform/web-static.js';

export interface AppOptions {
  config: ServerConfig;
  database: Database;
  logger?: FastifyServerOptions['logger'];
}

/** Registers plugins, then features, then the web app. No port is opened here. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? { level: config.logLevel },
    bodyLimit: config.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    // Keep-alive sockets that are idle are closed at shutdown; busy ones finish their request.
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Responses that finish during shutdown close their keep-alive socket, so close() never waits
  // on a client that holds an idle connection open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });
  registerErrorHandler(app);

  const settings = new RuntimeSettingsService(config.runtimeSettingsFile, app.log);
  await registerSecurityHeaders(app, await settings.get());
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  await registerOpenApi(app);

  const system = new SystemService(database, new SqlInstanceStore(database.db));
  await app.register(systemRoutes(system));
  await app.register(runtimeSettingsRoutes(settings));

  await registerWebApp(app, config.webDir);
  return app;
}
