import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createPipelineCatalogue } from './features/pipeline-catalogue/pipeline-catalogue-feature.js';
import { createSecretsFeature } from './features/secrets/secrets-feature.js';
import { createConfigMapsFeature } from './features/config-maps/config-maps-feature.js';
import { createClustersFeature } from './features/clusters/clusters-feature.js';
import { createEnvironmentsFeature } from './features/environments/environments-feature.js';
import { withClusterExecutor } from './features/environments/run-executor.js';
import { createLocalExecutor } from './features/pipelines/executor/local-executor-factory.js';
import { organisations } from './platform/database/schema.js';
import { count } from 'drizzle-orm';
import { createDeploymentsFeature } from './features/deployments/deployments-feature.js';
import { createAgentGatewayFeature } from './features/agent-gateway/agent-gateway-feature.js';
import { runtimeSettingsRoutes } from './features/runtime-settings/runtime-settings-routes.js';
import { RuntimeSettingsService } from './features/runtime-settings/runtime-settings-service.js';
import { membersFeature } from './features/members/members-feature.js';
import { oidcFeature } from './features/oidc/oidc-feature.js';
import { organisationsFeature } from './features/organisations/organisations-feature.js';
import { pipelineRunsFeature } from './features/pipeline-runs/pipeline-runs-feature.js';
import { externalPipelinesFeature } from './features/external-pipelines/external-pipelines-feature.js';
import { createWebhooksFeature } from './features/webhooks/webhooks-feature.js';
import { schedulesFeature } from './features/schedules/schedules-feature.js';
import { rolesFeature } from './features/roles/roles-feature.js';
import { serviceAccountsFeature } from './features/service-accounts/service-accounts-feature.js';
import { ssoFeature } from './features/sso/sso-feature.js';
import { SqlInstanceStore } from './features/system/instance-store.js';
import { systemRoutes } from './features/system/system-routes.js';
import { SystemService } from './features/system/system-service.js';
import path from 'node:path';
import { accessRoutes } from './features/access/access-routes.js';
import { SqlAccessStore } from './features/access/access-store.js';
import { SqlAuditStore } from './features/audit/audit-store.js';
import { auditFeature } from './features/audit/audit-feature.js';
import { onboardingFeature } from './features/onboarding/onboarding-feature.js';
import { authRoutes } from './features/auth/auth-routes.js';
import { AuthService } from './features/auth/auth-service.js';
import { AuthStore } from './features/auth/auth-store.js';
import { Throttle } from './features/auth/throttle.js';
import { registerAuditTrail } from './platform/audit-hook.js';
import { registerAccessControl } from './platform/auth/access-plugin.js';
import { SessionTokens } from './platform/auth/tokens.js';
import type { ServerConfig } from './platform/config.js';
import { Keys, loadMasterKey } from './platform/keys.js';
import { OutboxMailer, SmtpMailer, type Mailer } from './platform/mail.js';
import type { Database } from './platform/database/database.js';
import { registerErrorHandler } from './platform/error-handler.js';
import { registerNulGuard } from './platform/nul-guard.js';
import { GitUrlPolicy } from './platform/git-url-policy.js';
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

  const settings = new RuntimeSettingsService(config.runtimeSettingsFile, app.log);
  await registerSecurityHeaders(app, await settings.get());
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  // WebSocket routes live under /api/ws/… (decision 005) and /api/agent/connect; they declare
  // their access like any other route, checked on the upgrade request.
  await app.register(websocket, { options: { maxPayload: 16 * 1024 * 1024 } });
  await registerOpenApi(app);

  const keys = new Keys(loadMasterKey(config.masterKey, config.dataDir));
  const tokens = new SessionTokens(keys);
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.smtpFrom)
    : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.smtpFrom, app.log);
  const publicUrl =
    config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  const accessStore = new SqlAccessStore(database);
  // Before the access hook: a NUL in a header must not reach its queries (nor any other).
  registerNulGuard(app);
  registerAccessControl(app, accessStore, tokens);
  registerAuditTrail(app, new SqlAuditStore(database.db));

  const system = new SystemService(database, new SqlInstanceStore(database.db));
  await app.register(systemRoutes(system));
  await app.register(runtimeSettingsRoutes(settings));
  const auth = new AuthService(
    new AuthStore(database.db),
    tokens,
    mailer,
    new Throttle(database.db),
    publicUrl,
  );
  await app.register(authRoutes(auth));
  await app.register(accessRoutes(accessStore));
  const teamDeps = { db: database.db, auth, mailer, publicUrl };
  await app.register(organisationsFeature(teamDeps));
  await app.register(membersFeature(teamDeps));
  await app.register(rolesFeature(teamDeps));
  await app.register(serviceAccountsFeature(teamDeps));
  await app.register(auditFeature(database.db));
  await app.register(onboardingFeature(database.db));
  await app.register(ssoFeature(database.db, keys, auth));
  await app.register(oidcFeature(database.db, config, auth, publicUrl, keys));

  // Pipelines, templates, task templates; secrets and variables. The run engine reads definitions
  // through pipelineCatalogue.loader and secret values through secretsFeature.reader.
  const pipelineCatalogue = createPipelineCatalogue({ db: database.db });
  await app.register(pipelineCatalogue.plugin);
  const secretsFeature = createSecretsFeature({ db: database.db, keys });
  await app.register(secretsFeature.plugin);
  const configMapsFeature = createConfigMapsFeature({ db: database.db });
  await app.register(configMapsFeature.plugin);
  // The clusters' agents dial in at /api/agent/connect; features reach them through agentGateway.
  const agentGatewayFeature = createAgentGatewayFeature({
    db: database.db,
    log: app.log,
    // The embedded database runs on this thread: smaller writes let acks through between them.
    options: { flushChunk: database.driver === 'pglite' ? 100 : 1000 },
  });
  await app.register(agentGatewayFeature.plugin);
  const agentGateway = agentGatewayFeature.gateway;
  app.decorate('agentGateway', agentGateway);
  const clustersFeature = createClustersFeature({
    db: database.db,
    publicUrl,
    gateway: agentGateway,
    agentImage: config.agentImage,
  });
  await app.register(clustersFeature.plugin);
  const environmentsFeature = createEnvironmentsFeature({ db: database.db, clusters: clustersFeature.store });
  await app.register(environmentsFeature.plugin);
  const deploymentsFeature = createDeploymentsFeature({
    db: database.db,
    gateway: agentGateway,
    target: environmentsFeature.target,
  });
  await app.register(deploymentsFeature.plugin);
  // SLIPWAY_GIT_ALLOW: what external pipelines and the git-clone task may fetch from.
  const gitPolicy = new GitUrlPolicy(config.gitAllow);
  // The one local executor: sandboxed steps (decision 019), or refusing them with the reason.
  const { executor: localExecutor, status: localStatus } = createLocalExecutor(
    {
      mode: config.localExecutor,
      stepSpawner: config.stepSpawner,
      netAllow: config.sandboxNetAllow,
      sandboxUid: config.sandboxUid,
      maxProcesses: config.sandboxMaxProcesses,
      readOnlyPaths: config.sandboxReadOnlyPaths,
      images: config.stepImages,
    },
    config.dataDir,
    async () => (await database.db.select({ n: count() }).from(organisations))[0]?.n ?? 0,
  );
  if (config.engineEnabled) {
    if (localStatus.sandboxed) app.log.info(`local executor: ${localStatus.summary}`);
    else app.log.warn(`local executor: ${localStatus.summary}`);
  }
  const pipelineRuns = pipelineRunsFeature(app, {
    db: database.db,
    loader: pipelineCatalogue.loader,
    secrets: secretsFeature.reader,
    configMaps: configMapsFeature.reader,
    dataDir: config.dataDir,
    engine: config.engineEnabled,
    databaseUrl: database.driver === 'postgres' ? config.databaseUrl : undefined,
    // A run that targets an environment on an attached cluster runs there (Kubernetes executor).
    ...withClusterExecutor(
      localExecutor,
      agentGateway,
      environmentsFeature.target,
      deploymentsFeature.executor,
      gitPolicy,
    ),
  });
  await app.register(pipelineRuns.routes);
  // External pipelines: definitions read from git; a run of one syncs first.
  const externalPipelines = externalPipelinesFeature({
    db: database.db,
    catalogue: pipelineCatalogue,
    secrets: secretsFeature.reader,
    dataDir: config.dataDir,
    gitPolicy,
  });
  await app.register(externalPipelines.routes);
  pipelineRuns.service.beforeCreate((ws, id) => externalPipelines.service.beforeRun(ws, id));
  const runTriggers = { db: database.db, loader: pipelineCatalogue.loader, runs: pipelineRuns.service };
  await app.register(createWebhooksFeature({ ...runTriggers, keys }).plugin);
  await app.register(schedulesFeature(app, { ...runTriggers, engine: config.engineEnabled }).routes);

  await registerWebApp(app, config.webDir);
  return app;
}
