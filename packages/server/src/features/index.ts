import { isIP } from 'node:net';
import { count } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRecorder } from '../platform/audit-recorder.js';
import type { AccessStore } from '../platform/auth/access-store-type.js';
import type { SessionTokens } from '../platform/auth/tokens.js';
import type { ServerConfig } from '../platform/config.js';
import type { Database } from '../platform/database/database.js';
import { organisations } from '../platform/database/schema.js';
import type { Feature } from '../platform/feature.js';
import { GitUrlPolicy, parseGitAllow } from '../platform/git-url-policy.js';
import { parseNetAllow } from '../platform/net-allow.js';
import type { Keys } from '../platform/keys.js';
import type { Mailer } from '../platform/mail.js';
import { createAccessFeature } from './access/access-feature.js';
import { createApplicationsFeature } from './applications/applications-feature.js';
import {
  createAgentGatewayFeature,
  type AgentGatewayExports,
} from './agent-gateway/agent-gateway-feature.js';
import { createAuditFeature } from './audit/audit-feature.js';
import { createAuthFeature } from './auth/auth-feature.js';
import { createClustersFeature } from './clusters/clusters-feature.js';
import { createConfigMapsFeature } from './config-maps/config-maps-feature.js';
import { createDashboardFeature } from './dashboard/dashboard-feature.js';
import { createDeploymentsFeature } from './deployments/deployments-feature.js';
import { createEnvironmentsFeature } from './environments/environments-feature.js';
import { withClusterExecutor } from './environments/run-executor.js';
import { createExternalPipelinesFeature } from './external-pipelines/external-pipelines-feature.js';
import { createMembersFeature } from './members/members-feature.js';
import { createOidcFeature } from './oidc/oidc-feature.js';
import { createOnboardingFeature } from './onboarding/onboarding-feature.js';
import { createOrganisationsFeature } from './organisations/organisations-feature.js';
import { createPipelineCatalogueFeature } from './pipeline-catalogue/pipeline-catalogue-feature.js';
import { createPipelineRunsFeature } from './pipeline-runs/pipeline-runs-feature.js';
import { createQuickSetupFeature } from './quick-setup/quick-setup-feature.js';
import { createRegistryFeature } from './registry/registry-feature.js';
import { createRepositoriesFeature } from './repositories/repositories-feature.js';
import { createLocalExecutor } from './pipelines/executor/local-executor-factory.js';
import { createRolesFeature } from './roles/roles-feature.js';
import { createRunLimitsFeature } from './run-limits/run-limits-feature.js';
import type { RuntimeSettingsService } from './runtime-settings/runtime-settings-service.js';
import { createRuntimeSettingsFeature } from './runtime-settings/runtime-settings-feature.js';
import { createSchedulesFeature } from './schedules/schedules-feature.js';
import { createSecretsFeature } from './secrets/secrets-feature.js';
import { createServiceAccountsFeature } from './service-accounts/service-accounts-feature.js';
import { createSsoFeature } from './sso/sso-feature.js';
import { createSystemFeature } from './system/system-feature.js';
import { createWebhooksFeature } from './webhooks/webhooks-feature.js';

/** What app.ts holds and gives the features: configuration, database and platform pieces. */
export interface SharedDeps {
  config: ServerConfig;
  database: Database;
  log: FastifyBaseLogger;
  keys: Keys;
  tokens: SessionTokens;
  mailer: Mailer;
  /** the address links in mail and the agents' attach YAML point at */
  publicUrl: string;
}

export interface ComposedFeatures {
  /** every feature, in the order app.ts registers their plugins */
  features: Feature<unknown>[];
  /** what app.ts's platform plugins take from features (they are registered before any feature) */
  platform: {
    /** the runtime settings feature's document: the security headers */
    settings: RuntimeSettingsService;
    /** the access feature's store: the access check on every route */
    access: AccessStore;
    /** the audit feature's store: the audit trail on every route */
    audit: AuditRecorder;
    /** the agent gateway feature's gateway: decorated on the app as `agentGateway` */
    agentGateway: AgentGatewayExports['gateway'];
  };
}

/**
 * The one place features are composed (decision 026): each is made from the shared pieces and the
 * exports of the features it needs, and none makes another's store or service.
 */
export function composeFeatures(shared: SharedDeps): ComposedFeatures {
  const { config, database, log, keys, tokens, mailer, publicUrl } = shared;
  const db = database.db;

  const system = createSystemFeature({ database });
  const runtimeSettings = createRuntimeSettingsFeature({ file: config.runtimeSettingsFile, log });
  const auth = createAuthFeature({ db, tokens, mailer, publicUrl });
  const access = createAccessFeature({ database });
  const people = { auth: auth.exports.service, people: auth.exports.store };
  const organisationsFeature = createOrganisationsFeature({ db, ...people });
  const roles = createRolesFeature({ db });
  const members = createMembersFeature({
    db,
    ...people,
    throttle: auth.exports.throttle,
    roles: roles.exports.store,
    mailer,
    publicUrl,
  });
  const serviceAccounts = createServiceAccountsFeature({ db, roles: roles.exports.store });
  const audit = createAuditFeature({ db });
  const onboarding = createOnboardingFeature({ db });
  const sso = createSsoFeature({ db, keys, auth: auth.exports.service, throttle: auth.exports.throttle });
  const oidc = createOidcFeature({
    db,
    providers: config.oidcProviders,
    ...people,
    audit: audit.exports.store,
    publicUrl,
    keys,
  });

  // Pipelines, templates, task templates; secrets and variables. The run engine reads definitions
  // through the catalogue's loader and secret values through the secrets' reader.
  const catalogue = createPipelineCatalogueFeature({ db });
  const runLimits = createRunLimitsFeature({ db });
  const secrets = createSecretsFeature({ db, keys });
  const configMaps = createConfigMapsFeature({ db });
  // The clusters' agents dial in at /api/agent/connect; features reach them through its gateway.
  const agentGateway = createAgentGatewayFeature({
    db,
    log,
    // The embedded database runs on this thread: smaller writes let acks through between them.
    options: { flushChunk: database.driver === 'pglite' ? 100 : 1000 },
  });
  const gateway = agentGateway.exports.gateway;
  const clusters = createClustersFeature({
    db,
    publicUrl,
    gateway,
    agentImage: config.agentImage,
    audit: audit.exports.store,
  });
  const environments = createEnvironmentsFeature({ db, clusters: clusters.exports.store });
  const deployments = createDeploymentsFeature({ db, gateway, target: environments.exports.target });
  // SLIPWAY_GIT_ALLOW: what external pipelines and the git-clone task may fetch from.
  // Slipway's own address is admitted too: pipelines clone its hosted repositories and push to its
  // registry there (decision 031), and a step reaches it like any other client of the API.
  const self = selfAddress(publicUrl);
  const gitPolicy = new GitUrlPolicy([...config.gitAllow, ...parseGitAllow(self?.entry)]);
  // The one local executor: sandboxed steps (decision 019), or refusing them with the reason.
  const { executor: localExecutor, status: localStatus } = createLocalExecutor(
    {
      mode: config.localExecutor,
      stepSpawner: config.stepSpawner,
      netAllow: self?.ip ? [...config.sandboxNetAllow, ...parseNetAllow(self.entry)] : config.sandboxNetAllow,
      sandboxUid: config.sandboxUid,
      maxProcesses: config.sandboxMaxProcesses,
      readOnlyPaths: config.sandboxReadOnlyPaths,
      images: config.stepImages,
    },
    config.dataDir,
    async () => (await db.select({ n: count() }).from(organisations))[0]?.n ?? 0,
  );
  if (config.engineEnabled) {
    if (localStatus.sandboxed) log.info(`local executor: ${localStatus.summary}`);
    else log.warn(`local executor: ${localStatus.summary}`);
  }
  const pipelineRuns = createPipelineRunsFeature({
    db,
    log,
    loader: catalogue.exports.loader,
    secrets: secrets.exports.reader,
    configMaps: configMaps.exports.reader,
    dataDir: config.dataDir,
    engine: config.engineEnabled,
    databaseUrl: database.driver === 'postgres' ? config.databaseUrl : undefined,
    // A run that targets an environment on an attached cluster runs there (Kubernetes executor).
    ...withClusterExecutor(
      localExecutor,
      gateway,
      environments.exports.target,
      deployments.exports.executor,
      gitPolicy,
      environments.exports.tektonTarget,
    ),
  });
  // External pipelines: definitions read from git; a run of one syncs first.
  const externalPipelines = createExternalPipelinesFeature({
    db,
    catalogue: catalogue.exports,
    secrets: secrets.exports.reader,
    dataDir: config.dataDir,
    gitPolicy,
  });
  pipelineRuns.exports.service.beforeCreate((ws, id) => externalPipelines.exports.service.beforeRun(ws, id));
  const runTriggers = { db, loader: catalogue.exports.loader, runs: pipelineRuns.exports.service };
  const webhooks = createWebhooksFeature({ ...runTriggers, keys });
  const schedules = createSchedulesFeature({ ...runTriggers, log, engine: config.engineEnabled });
  // Hosted git: the repositories quick setup bootstraps, cloned and pushed over smart HTTP.
  const repositories = createRepositoriesFeature({
    db,
    dataDir: config.dataDir,
    publicUrl,
    gitPolicy,
    access: access.exports.store,
    audit: audit.exports.store,
  });
  // The registry at /v2/: quick setup's first pipeline pushes there and clusters pull from it.
  const registry = createRegistryFeature({
    db,
    dataDir: config.dataDir,
    publicUrl,
    access: access.exports.store,
    audit: audit.exports.store,
  });
  // Applications: a push to their repository's branch starts their pipeline.
  const applications = createApplicationsFeature({
    db,
    log,
    repositories: repositories.exports,
    registry: registry.exports,
    loader: catalogue.exports.loader,
    runs: pipelineRuns.exports.service,
  });
  const dashboard = createDashboardFeature({ db, applications: applications.exports.service });
  // Quick setup: a template's repository, credentials, pipeline and application, then the first run.
  const quickSetup = createQuickSetupFeature({
    repositories: repositories.exports.service,
    git: repositories.exports.git,
    registryPrefix: registry.exports.prefix,
    insecureRegistry: publicUrl.startsWith('http:'),
    secrets: secrets.exports.service,
    serviceAccounts: serviceAccounts.exports.service,
    pipelines: catalogue.exports.pipelines,
    applications: applications.exports.service,
    runs: pipelineRuns.exports.service,
    gitPolicy,
    environmentTarget: environments.exports.target,
  });

  return {
    features: [
      system,
      runtimeSettings,
      auth,
      access,
      organisationsFeature,
      members,
      roles,
      serviceAccounts,
      audit,
      onboarding,
      sso,
      oidc,
      catalogue,
      runLimits,
      secrets,
      configMaps,
      agentGateway,
      clusters,
      environments,
      deployments,
      pipelineRuns,
      externalPipelines,
      webhooks,
      schedules,
      repositories,
      registry,
      applications,
      dashboard,
      quickSetup,
    ],
    platform: {
      settings: runtimeSettings.exports.settings,
      access: access.exports.store,
      audit: audit.exports.store,
      agentGateway: gateway,
    },
  };
}

/**
 * `host:port` of the server's public address, and whether its host is an IP (the sandbox's policy
 * takes only those); null while the port is not known yet (a server told to listen on port 0).
 */
function selfAddress(publicUrl: string): { entry: string; ip: boolean } | null {
  const url = new URL(publicUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (port === '0') return null;
  return { entry: `${url.hostname}:${port}`, ip: isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0 };
}
