import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import path from 'node:path';
import { composeFeatures } from './features/index.js';
import { registerAuditTrail } from './platform/audit-hook.js';
import { registerAccessControl } from './platform/auth/access-plugin.js';
import { SessionTokens } from './platform/auth/tokens.js';
import type { ServerConfig } from './platform/config.js';
import { Keys, loadMasterKey } from './platform/keys.js';
import { OutboxMailer, SmtpMailer, type Mailer } from './platform/mail.js';
import type { Database } from './platform/database/database.js';
import { registerErrorHandler } from './platform/error-handler.js';
import { registerNulGuard } from './platform/nul-guard.js';
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
    // SLIPWAY_TRUST_PROXY: request.ip comes from X-Forwarded-For only through trusted proxies.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops) => (_address: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
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

  const keys = new Keys(loadMasterKey(config.masterKey, config.dataDir));
  const tokens = new SessionTokens(keys);
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.smtpFrom)
    : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.smtpFrom, app.log);
  const publicUrl =
    config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  // Every feature, made in one place (features/index.ts); their plugins are registered below.
  const { features, platform } = composeFeatures({
    config,
    database,
    log: app.log,
    keys,
    tokens,
    mailer,
    publicUrl,
  });

  await registerSecurityHeaders(app, await platform.settings.get());
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  // WebSocket routes live under /api/ws/… (decision 005) and /api/agent/connect; they declare
  // their access like any other route, checked on the upgrade request.
  await app.register(websocket, { options: { maxPayload: 16 * 1024 * 1024 } });
  await registerOpenApi(app);

  // Before the access hook: a NUL in a header must not reach its queries (nor any other).
  registerNulGuard(app);
  registerAccessControl(app, platform.access, tokens);
  registerAuditTrail(app, platform.audit);
  // The clusters' agents dial in at /api/agent/connect; tests and features reach them here.
  app.decorate('agentGateway', platform.agentGateway);

  for (const feature of features) await app.register(feature.plugin);

  await registerWebApp(app, config.webDir);
  return app;
}
