import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * One row describing this installation: created on first start, counted on every start.
 * It is how an operator (and the restart test) can see that data survives a restart.
 */
export const instance = pgTable('instance', {
  id: text('id').primaryKey(),
  firstStartedAt: timestamp('first_started_at', { withTimezone: true }).notNull().defaultNow(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }).notNull().defaultNow(),
  starts: integer('starts').notNull().default(1),
});

// ── Identity, organisations, workspaces and access (issue 3) ──────────────────────────────
const id = () => text('id').primaryKey();
const created = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true });

export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  /** null for people who only sign in through OpenID Connect or LDAP */
  passwordHash: text('password_hash'),
  emailVerifiedAt: at('email_verified_at'),
  currentOrganisationId: text('current_organisation_id'),
  createdAt: created(),
});

export const organisations = pgTable('organisations', {
  id: id(),
  name: text('name').notNull(),
  /** an organisation admin's cap on any run's duration in minutes (null: no cap beyond the run's own timeout) */
  maxRunMinutes: integer('max_run_minutes'),
  createdAt: created(),
});

export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** master_admin | account_admin | member */
    role: text('role').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.userId] })],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: id(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: created(),
  },
  (t) => [uniqueIndex('workspaces_org_name').on(t.organisationId, t.name)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** a built-in workspace role (project_admin, developer, viewer) or a custom role's id */
    role: text('role').notNull(),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

/** Custom roles of an organisation; the built-in ones live in code (contracts). */
export const roles = pgTable(
  'roles',
  {
    id: id(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** PermissionGrant[] */
    grants: jsonb('grants').notNull().default([]),
    createdAt: created(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_org_name').on(t.organisationId, t.name)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: text('organisation_id').notNull(),
    /** the X-BrowserFingerprint sent at sign-in; the token is refused with another one */
    fingerprint: text('fingerprint'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: created(),
    expiresAt: at('expires_at').notNull(),
    lastSeenAt: at('last_seen_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

/** E-mailed 6-digit codes; only a hash is kept. */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: created(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
  },
  (t) => [index('verification_codes_user').on(t.userId, t.purpose)],
);

/** Single-use, expiring tokens: password resets and invites share this shape of keeping a hash. */
export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: created(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

export const invites = pgTable(
  'invites',
  {
    id: id(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    organisationRole: text('organisation_role').notNull().default('member'),
    workspaceRole: text('workspace_role'),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').notNull(),
    createdAt: created(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('invites_org').on(t.organisationId)],
);

export const serviceAccounts = pgTable(
  'service_accounts',
  {
    id: id(),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** the first characters of the token, shown in lists so people can tell tokens apart */
    tokenPrefix: text('token_prefix').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: text('created_by').notNull(),
    createdAt: created(),
    expiresAt: at('expires_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('service_accounts_org_name').on(t.organisationId, t.name)],
);

/** A service account's project permissions: a role per workspace. */
export const serviceAccountWorkspaces = pgTable(
  'service_account_workspaces',
  {
    serviceAccountId: text('service_account_id')
      .notNull()
      .references(() => serviceAccounts.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
  },
  (t) => [primaryKey({ columns: [t.serviceAccountId, t.workspaceId] })],
);

/** Enterprise single sign-on (LDAP) settings of an organisation; the bind password is encrypted. */
export const ssoSettings = pgTable('sso_settings', {
  organisationId: text('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  url: text('url').notNull(),
  bindDn: text('bind_dn').notNull(),
  bindPasswordEncrypted: text('bind_password_encrypted').notNull(),
  baseDn: text('base_dn').notNull(),
  userQuery: text('user_query').notNull(),
  groupQuery: text('group_query').notNull(),
  emailAttribute: text('email_attribute').notNull().default('mail'),
  /** LDAP group DN or cn → { organisationRole, workspaceId?, workspaceRole? } */
  groupRoles: jsonb('group_roles').notNull().default([]),
  /** { startTls, skipTlsVerify, caCertificate } for ldaps:// and StartTLS; null: plain LDAP */
  tls: jsonb('tls'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** OpenID Connect sign-in in flight: state, nonce and PKCE verifier until the callback. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  provider: text('provider').notNull(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  intent: text('intent').notNull(),
  createdAt: created(),
  expiresAt: at('expires_at').notNull(),
});

/** Failed attempts by key (per IP and per account) for growing delays. */
export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  blockedUntil: at('blocked_until'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The audit trail. Rows are only ever inserted: a trigger refuses UPDATE and DELETE. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    organisationId: text('organisation_id'),
    workspaceId: text('workspace_id'),
    /** user | service_account | anonymous */
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    fingerprint: text('fingerprint'),
    /** success | failure | denied */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    detail: jsonb('detail'),
  },
  (t) => [index('audit_org_at').on(t.organisationId, t.at), index('audit_actor').on(t.actorId)],
);

// ── Pipelines, runs, logs, secrets and variables (issue 4) ────────────────────────────────
const updated = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Pipelines and pipeline templates: Tekton Pipeline documents, kept with every version. */
export const pipelines = pgTable(
  'pipelines',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** pipeline | template */
    kind: text('kind').notNull().default('pipeline'),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    currentVersion: integer('current_version').notNull().default(1),
    /** the pipeline that "run rollback" starts */
    rollbackPipelineId: text('rollback_pipeline_id'),
    /**
     * An external pipeline's source: { kind: 'git', url, revision, path, secret? } — its
     * definition is read from that repository; null for a pipeline defined in Slipway.
     */
    source: jsonb('source'),
    lastSyncedAt: at('last_synced_at'),
    syncError: text('sync_error'),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('pipelines_ws_kind_name').on(t.workspaceId, t.kind, t.name)],
);

export const pipelineVersions = pgTable(
  'pipeline_versions',
  {
    pipelineId: text('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** the document exactly as given (exported unchanged) */
    definition: text('definition').notNull(),
    /** yaml | json */
    format: text('format').notNull(),
    createdBy: text('created_by'),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pipelineId, t.version] })],
);

/** Task templates: Tekton Task documents; workspace_id null for the built-in ones. */
export const taskTemplates = pgTable(
  'task_templates',
  {
    id: id(),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    version: integer('version').notNull().default(1),
    definition: text('definition').notNull(),
    format: text('format').notNull(),
    builtIn: boolean('built_in').notNull().default(false),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('task_templates_ws_name').on(t.workspaceId, t.name)],
);

/**
 * A pipeline run. The reconcile loop claims runnable rows with FOR UPDATE SKIP LOCKED and holds
 * them with claimed_by/claimed_until, so replicas share the work and a dead one's runs are found.
 */
export const pipelineRuns = pgTable(
  'pipeline_runs',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    pipelineId: text('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    pipelineVersion: integer('pipeline_version').notNull(),
    /** per-pipeline sequence number, shown as #n */
    number: integer('number').notNull(),
    name: text('name').notNull(),
    /** pending | in_progress | succeeded | failed | timed_out | cancelled */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    message: text('message'),
    params: jsonb('params').notNull().default({}),
    /** PipelineRun workspace bindings as given */
    workspaceBindings: jsonb('workspace_bindings').notNull().default([]),
    timeoutMs: integer('timeout_ms').notNull(),
    results: jsonb('results'),
    /** who or what started it: { kind: 'user' | 'webhook' | 'schedule' | 'rerun' | 'rollback', id } */
    trigger: jsonb('trigger').notNull(),
    rerunOf: text('rerun_of'),
    rollbackOf: text('rollback_of'),
    executor: text('executor').notNull().default('local'),
    /** the environment a run targets; its cluster runs the tasks (Kubernetes executor) */
    environmentId: text('environment_id'),
    claimedBy: text('claimed_by'),
    claimedUntil: at('claimed_until'),
    cancelRequestedAt: at('cancel_requested_at'),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [
    uniqueIndex('pipeline_runs_pipeline_number').on(t.pipelineId, t.number),
    index('pipeline_runs_ws_queued').on(t.workspaceId, t.queuedAt),
    index('pipeline_runs_status').on(t.status, t.queuedAt),
  ],
);

export const taskRuns = pgTable(
  'task_runs',
  {
    id: id(),
    runId: text('run_id')
      .notNull()
      .references(() => pipelineRuns.id, { onDelete: 'cascade' }),
    /** the pipeline task's name; `<task>-<i>` for a matrix combination */
    name: text('name').notNull(),
    pipelineTask: text('pipeline_task').notNull(),
    isFinally: boolean('is_finally').notNull().default(false),
    /** pending | running | succeeded | failed | skipped | timed_out | cancelled */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    attempt: integer('attempt').notNull().default(0),
    params: jsonb('params'),
    results: jsonb('results'),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [uniqueIndex('task_runs_run_name').on(t.runId, t.name)],
);

export const stepRuns = pgTable(
  'step_runs',
  {
    taskRunId: text('task_run_id')
      .notNull()
      .references(() => taskRuns.id, { onDelete: 'cascade' }),
    idx: integer('idx').notNull(),
    name: text('name').notNull(),
    image: text('image').notNull(),
    /** pending | running | succeeded | failed | skipped | timed_out | cancelled */
    status: text('status').notNull().default('pending'),
    exitCode: integer('exit_code'),
    reason: text('reason'),
    startedAt: at('started_at'),
    finishedAt: at('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.taskRunId, t.idx] })],
);

/**
 * Log lines, stored durably in chunks: `lines` is a JSON array of
 * { seq, at, stream, step, text } in seq order; seq_from/seq_to bound the chunk.
 */
export const logChunks = pgTable(
  'log_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: text('run_id')
      .notNull()
      .references(() => pipelineRuns.id, { onDelete: 'cascade' }),
    taskRunId: text('task_run_id')
      .notNull()
      .references(() => taskRuns.id, { onDelete: 'cascade' }),
    seqFrom: integer('seq_from').notNull(),
    seqTo: integer('seq_to').notNull(),
    // json, not jsonb: written once and read back whole, never queried inside; json keeps the
    // text as written, which PostgreSQL takes in and gives back at about twice jsonb's speed
    lines: json('lines').notNull(),
    createdAt: created(),
  },
  (t) => [index('log_chunks_task_seq').on(t.taskRunId, t.seqFrom), index('log_chunks_run').on(t.runId)],
);

/** Secrets: encrypted with the master key (AES-256-GCM), never returned after creation. */
export const secrets = pgTable(
  'secrets',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** generic | registry | git | ssh | token */
    type: text('type').notNull().default('generic'),
    /** a global secret's value applies to every environment */
    global: boolean('global').notNull().default(true),
    /** { key: sealed value } — a secret may hold several keys, like a Kubernetes Secret */
    valuesEncrypted: jsonb('values_encrypted').notNull(),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('secrets_ws_name').on(t.workspaceId, t.name)],
);

/**
 * Plain configuration files for steps, like a Kubernetes ConfigMap: `configMap` workspace bindings,
 * Task volumes, `configMapKeyRef` and `envFrom.configMapRef` read them.
 */
export const configMaps = pgTable(
  'config_maps',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** { key: text } — each key is a file name when mounted */
    data: jsonb('data').notNull(),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('config_maps_ws_name').on(t.workspaceId, t.name)],
);

/** Plain (non-secret) variables, injected as env into every step of a workspace's runs. */
export const variables = pgTable(
  'variables',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull(),
    description: text('description').notNull().default(''),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('variables_ws_name').on(t.workspaceId, t.name)],
);

// ── Triggers: webhooks and schedules (issue 4) ────────────────────────────────────────────

/** A pipeline's webhook, received at /api/hooks/<id>. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    pipelineId: text('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    /** github | gitlab | bitbucket */
    type: text('type').notNull(),
    /** the provider's event name, e.g. push, pull_request, merge_request, repo:push */
    event: text('event').notNull(),
    /** a glob on the branch name, e.g. main or release/* */
    branch: text('branch').notNull().default('*'),
    /** the shared secret (GitHub, Bitbucket) or token (GitLab), sealed with the master key */
    secretEncrypted: text('secret_encrypted').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
    lastDeliveryAt: at('last_delivery_at'),
  },
  (t) => [index('webhooks_ws').on(t.workspaceId, t.createdAt)],
);

/** Every delivery a webhook received, and what became of it. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /** the provider's delivery id (X-GitHub-Delivery, X-Request-UUID…) when it sends one */
    deliveryId: text('delivery_id'),
    event: text('event'),
    /** triggered | ignored | rejected | failed */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code').notNull(),
    message: text('message').notNull().default(''),
    /** repository, branch, commit, author as read from the payload */
    params: jsonb('params'),
    runId: text('run_id'),
    payloadBytes: integer('payload_bytes').notNull().default(0),
  },
  (t) => [index('webhook_deliveries_hook').on(t.webhookId, t.receivedAt)],
);

/**
 * A provider's delivery id seen for a webhook: a replay of the same delivery (same id) starts no
 * second run. Written in the same transaction as the delivery that started a run (or was ignored).
 */
export const webhookDeliveryIds = pgTable(
  'webhook_delivery_ids',
  {
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.webhookId, t.deliveryId] })],
);

/** A pipeline started on a timetable. */
export const schedules = pgTable(
  'schedules',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    pipelineId: text('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** hourly | daily | weekly | cron */
    frequency: text('frequency').notNull(),
    /** hourly: the minute past the hour */
    minute: integer('minute'),
    /** daily and weekly: HH:MM */
    time: text('time'),
    /** weekly: 0 (Sunday) … 6 */
    dayOfWeek: integer('day_of_week'),
    /** cron: a five-field expression */
    cron: text('cron'),
    /** an IANA time zone, e.g. Europe/London */
    timeZone: text('time_zone').notNull().default('UTC'),
    params: jsonb('params').notNull().default({}),
    timeoutHours: doublePrecision('timeout_hours').notNull().default(1),
    enabled: boolean('enabled').notNull().default(true),
    nextRunAt: at('next_run_at'),
    lastRunAt: at('last_run_at'),
    lastRunId: text('last_run_id'),
    /** why the last due run could not start; null when it did */
    lastError: text('last_error'),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('schedules_ws_name').on(t.workspaceId, t.name),
    index('schedules_due').on(t.enabled, t.nextRunAt),
  ],
);

// ── Clusters, environments and deployments (issue 5) ─────────────────────────────────────

/** A Kubernetes cluster attached through the in-cluster agent. */
export const clusters = pgTable(
  'clusters',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** eks | aks | gke | other */
    type: text('type').notNull(),
    private: boolean('private').notNull().default(false),
    tunnelConfig: text('tunnel_config'),
    publicRegistryPrefix: text('public_registry_prefix'),
    limitedAgentPermission: boolean('limited_agent_permission').notNull().default(false),
    allowedNamespaces: jsonb('allowed_namespaces').notNull().default(['ozone']),
    /** namespaces chosen for logs */
    selectedNamespaces: jsonb('selected_namespaces').notNull().default([]),
    /** in_creation | creation_failed | attaching | active | not_active | detached */
    status: text('status').notNull().default('attaching'),
    statusMessage: text('status_message'),
    /** the agent's token: only its hash, and a prefix to recognise it by */
    tokenHash: text('token_hash'),
    tokenPrefix: text('token_prefix'),
    tokenRevokedAt: at('token_revoked_at'),
    agentVersion: text('agent_version'),
    kubernetesVersion: text('kubernetes_version'),
    nodeCount: integer('node_count'),
    totalVcpu: doublePrecision('total_vcpu'),
    namespaces: jsonb('namespaces').notNull().default([]),
    /** add-on catalogue ids, e.g. [1, 3] */
    installedResources: jsonb('installed_resources').notNull().default([]),
    /** [{ name, provisioner, reclaimPolicy, bindingMode, default }] */
    storageOptions: jsonb('storage_options').notNull().default([]),
    lastHeartbeatAt: at('last_heartbeat_at'),
    /** the interval the agent said it heartbeats at (hello); three missed ones mean not active */
    heartbeatSeconds: integer('heartbeat_seconds').notNull().default(30),
    connectedAt: at('connected_at'),
    createdBy: text('created_by'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [
    uniqueIndex('clusters_ws_name').on(t.workspaceId, t.name),
    uniqueIndex('clusters_token_hash').on(t.tokenHash),
  ],
);

/** Where things are deployed: a namespace on a cluster. */
export const environments = pgTable(
  'environments',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** development | staging | production | other */
    type: text('type').notNull(),
    clusterId: text('cluster_id').references(() => clusters.id, { onDelete: 'set null' }),
    namespace: text('namespace'),
    createdAt: created(),
    updatedAt: updated(),
  },
  (t) => [uniqueIndex('environments_ws_name').on(t.workspaceId, t.name)],
);

/** An application deployed into an environment, and its last known health. */
export const deployments = pgTable(
  'deployments',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    environmentId: text('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    /** the application's name (app.kubernetes.io/name of what was applied) */
    name: text('name').notNull(),
    namespace: text('namespace').notNull(),
    /** [{ apiVersion, kind, name, namespace }] applied by the last deployment */
    resources: jsonb('resources').notNull().default([]),
    image: text('image'),
    /** healthy | progressing | degraded | suspended | missing | unknown */
    health: text('health').notNull().default('unknown'),
    healthMessage: text('health_message'),
    runId: text('run_id'),
    deployedAt: timestamp('deployed_at', { withTimezone: true }).notNull().defaultNow(),
    healthCheckedAt: at('health_checked_at'),
  },
  (t) => [uniqueIndex('deployments_env_name').on(t.environmentId, t.name)],
);

// ── Guided tour (spec §2 "Guided first-run tour", §4 "Guided tour") ──────────────────────

/** Where a user is in the guided tour, per organisation (admin/onboarding/{get,set}TourStatus). */
export const onboardingStates = pgTable(
  'onboarding_states',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organisationId: text('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    /** the spec's server step (currentstep); the tour step is max(0, currentstep - 4) */
    currentStep: integer('current_step').notNull().default(0),
    completed: boolean('completed').notNull().default(false),
    updatedAt: updated(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.organisationId] })],
);
