import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type ExtraConfigColumn,
} from 'drizzle-orm/pg-core';
import { at, created, description, id, parentRef, timestamps, updated } from './columns.js';

/**
 * Identity, organisations, workspaces and access (issue 3): people, their sessions and sign-in,
 * organisations and workspaces with their members, custom roles, invites, service accounts and
 * single sign-on.
 */

/**
 * References other areas' tables share: the user, organisation or workspace a row belongs to.
 * Deleting that user, organisation or workspace deletes the row. Function declarations, so the
 * tables above them in this file can use them before the module has run to the end.
 */
export function userRef() {
  return parentRef('user_id', () => users.id);
}

export function organisationRef() {
  return parentRef('organisation_id', () => organisations.id);
}

export function workspaceRef() {
  return parentRef('workspace_id', () => workspaces.id);
}

/** The unique index `<table>_org_name`: a name is taken once in an organisation. */
export function nameUniqueInOrganisation(table: string) {
  return (t: { organisationId: ExtraConfigColumn; name: ExtraConfigColumn }) => [
    uniqueIndex(`${table}_org_name`).on(t.organisationId, t.name),
  ];
}

/** The unique index `<table>_ws_name`: a name is taken once in a workspace. */
export function nameUniqueInWorkspace(table: string) {
  return (t: { workspaceId: ExtraConfigColumn; name: ExtraConfigColumn }) => [
    uniqueIndex(`${table}_ws_name`).on(t.workspaceId, t.name),
  ];
}

/** The first columns of a named thing of an organisation: its id, its organisation and its name. */
export function organisationNamed() {
  return { id: id(), organisationId: organisationRef(), name: text('name').notNull() };
}

/** A person's membership of an organisation or workspace: who, their role in it, and since when. */
export function membership() {
  return { userId: userRef(), role: text('role').notNull(), createdAt: created() };
}

/** The first columns of a workspace's row: its id and its workspace. */
export function workspaceRow() {
  return { id: id(), workspaceId: workspaceRef() };
}

/** The first columns of a named thing of a workspace: its id, its workspace and its name. */
export function workspaceNamed() {
  return { ...workspaceRow(), name: text('name').notNull() };
}

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

/** The people of an organisation; `role` is master_admin, account_admin or member. */
export const organisationMembers = pgTable(
  'organisation_members',
  { organisationId: organisationRef(), ...membership() },
  (t) => [primaryKey({ columns: [t.organisationId, t.userId] })],
);

export const workspaces = pgTable(
  'workspaces',
  {
    ...organisationNamed(),
    /** an admin's cap on this workspace's runs in progress at once (null: the default, 4) */
    maxRunsInProgress: integer('max_runs_in_progress'),
    createdAt: created(),
  },
  nameUniqueInOrganisation('workspaces'),
);

/**
 * The people of a workspace; `role` is a built-in workspace role (project_admin, developer,
 * viewer) or a custom role's id.
 */
export const workspaceMembers = pgTable(
  'workspace_members',
  { workspaceId: workspaceRef(), ...membership() },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] })],
);

/** Custom roles of an organisation; the built-in ones live in code (contracts). */
export const roles = pgTable(
  'roles',
  {
    ...organisationNamed(),
    description: description(),
    /** PermissionGrant[] */
    grants: jsonb('grants').notNull().default([]),
    ...timestamps(),
  },
  nameUniqueInOrganisation('roles'),
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: userRef(),
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
    userId: userRef(),
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
  userId: userRef(),
  createdAt: created(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

export const invites = pgTable(
  'invites',
  {
    id: id(),
    organisationId: organisationRef(),
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
    ...organisationNamed(),
    /** the first characters of the token, shown in lists so people can tell tokens apart */
    tokenPrefix: text('token_prefix').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: text('created_by').notNull(),
    createdAt: created(),
    expiresAt: at('expires_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  nameUniqueInOrganisation('service_accounts'),
);

/** A service account's project permissions: a role per workspace. */
export const serviceAccountWorkspaces = pgTable(
  'service_account_workspaces',
  {
    serviceAccountId: parentRef('service_account_id', () => serviceAccounts.id),
    workspaceId: workspaceRef(),
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
  updatedAt: updated(),
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
  updatedAt: updated(),
});
