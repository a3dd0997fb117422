import { z } from 'zod';
import { DATE_RANGE_PRESETS } from './constants.js';
import { MESSAGES } from './messages.js';
import { listQuerySchema } from './paging.js';

// ── Audit trail ─────────────────────────────────────────────────────────────────────────────

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcomeName = (typeof AUDIT_OUTCOMES)[number];

const ISO_DATE_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date ('2025-03-31') or date-time ('2025-03-31T12:00:00Z'); null when it is not one
 * or names a day that does not exist (2025-02-30). A date without a zone is read as UTC.
 */
export function parseIsoDate(value: string): Date | null {
  const v = value.trim();
  if (!ISO_DATE_RE.test(v)) return null;
  const dateOnly = v.length === 10;
  const withZone = dateOnly || /(?:Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`;
  const d = new Date(withZone);
  if (Number.isNaN(d.getTime())) return null;
  // The calendar day must exist: JavaScript turns 2025-02-30 into 2025-03-02.
  const [y, m, day] = v.slice(0, 10).split('-').map(Number);
  const check = new Date(Date.UTC(y!, m! - 1, day!));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m! - 1 || check.getUTCDate() !== day)
    return null;
  return d;
}

const isoDateSchema = z
  .string({ message: MESSAGES.invalidDate })
  .trim()
  .refine((v) => parseIsoDate(v) !== null, MESSAGES.invalidDate);

const filterText = z.string().trim().min(1).max(256);

/** Filters of the audit trail (list and CSV export). */
export const auditFilterSchema = z.object({
  /** the acting user's or service account's id */
  actor: filterText.optional(),
  action: filterText.optional(),
  targetType: filterText.optional(),
  targetId: filterText.optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** one of the date ranges of spec §9; ignored when from or to is given */
  range: z.enum(DATE_RANGE_PRESETS).optional(),
  /** inclusive start: an ISO date or date-time */
  from: isoDateSchema.optional(),
  /** exclusive end; a date without a time means "through the end of that day" */
  to: isoDateSchema.optional(),
  /** only events in this workspace */
  workspaceId: filterText.optional(),
});

function fromBeforeTo(q: { from?: string | undefined; to?: string | undefined }): boolean {
  if (!q.from || !q.to) return true;
  const from = parseIsoDate(q.from);
  const to = parseIsoDate(q.to);
  return !from || !to || from.getTime() <= to.getTime();
}

export const auditExportQuerySchema = auditFilterSchema.refine(fromBeforeTo, {
  message: 'from must not be after to',
  path: ['to'],
});

/** The list convention (_start, _end, _order) plus the filters; newest first by default. */
export const auditListQuerySchema = listQuerySchema
  .safeExtend({
    ...auditFilterSchema.shape,
    _order: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(['ASC', 'DESC']))
      .default('DESC'),
  })
  .refine(fromBeforeTo, { message: 'from must not be after to', path: ['to'] });
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export type AuditFilterQuery = z.infer<typeof auditFilterSchema>;

export const auditEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  organisationId: z.string().nullable(),
  workspaceId: z.string().nullable(),
  actorType: z.enum(['user', 'service_account', 'anonymous']),
  actorId: z.string().nullable(),
  actorLabel: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  fingerprint: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  statusCode: z.number().int().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;
export const auditListResponseSchema = z.array(auditEventSchema);

/** Column headings of the CSV export, in order. */
export const AUDIT_CSV_COLUMNS = [
  'time',
  'actor',
  'actor type',
  'organisation',
  'workspace',
  'action',
  'target type',
  'target id',
  'outcome',
  'status',
  'ip',
  'user agent',
  'fingerprint',
] as const;

// ── Enterprise single sign-on (LDAP) ────────────────────────────────────────────────────────

export const SSO_MESSAGES = {
  urlLdap: 'URL must be LDAP or LDAPS',
  urlRequired: 'URL is required',
  bindDnRequired: 'Bind DN is required',
  bindPasswordRequired: 'Bind password is required',
  baseDnRequired: 'Base DN is required',
  userQueryRequired: 'User query is required',
  userQueryPlaceholder: 'User query must be an LDAP filter in parentheses containing {username}',
  groupQueryRequired: 'Group query is required',
  groupQueryPlaceholder: 'Group query must be an LDAP filter in parentheses containing {dn} or {username}',
  emailAttribute: 'Email attribute must be an LDAP attribute name',
  groupRequired: 'Group is required',
  workspaceRoleNeedsWorkspace: 'A workspace role needs a workspace, and a workspace needs a role',
  startTlsWithLdaps: 'StartTLS is for ldap:// URLs; an ldaps:// connection is encrypted from the start',
  caCertificate: 'CA certificate must be PEM: -----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----',
} as const;

const PEM_CERTIFICATE =
  /^(-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*)+$/;
/** A CA certificate (or a chain) in PEM, to trust a directory's own certificate authority. */
export const caCertificateSchema = z
  .string()
  .trim()
  .max(65_536, SSO_MESSAGES.caCertificate)
  .refine((v) => v === '' || PEM_CERTIFICATE.test(v), SSO_MESSAGES.caCertificate);

/** The hint answered in place of the bind password, which is never sent back. */
export const MASKED_SECRET = '••••';

const required = (message: string) => z.string({ message }).trim().min(1, message).max(1024, message);
const isFilter = (v: string) => v.startsWith('(') && v.endsWith(')');

/** Organisation roles an LDAP group may grant; master admin is never granted by a directory. */
export const SSO_ORGANISATION_ROLES = ['account_admin', 'member'] as const;

export const ssoGroupRoleSchema = z
  .object({
    /** the group's cn or its full DN */
    group: required(SSO_MESSAGES.groupRequired),
    organisationRole: z.enum(SSO_ORGANISATION_ROLES),
    workspaceId: z.string().trim().min(1).optional(),
    /** a built-in workspace role (project_admin, developer, viewer) or a custom role's id */
    workspaceRole: z.string().trim().min(1).optional(),
  })
  .refine((g) => Boolean(g.workspaceId) === Boolean(g.workspaceRole), {
    message: SSO_MESSAGES.workspaceRoleNeedsWorkspace,
    path: ['workspaceRole'],
  });
export type SsoGroupRole = z.infer<typeof ssoGroupRoleSchema>;

export const ssoSettingsRequestSchema = z.object({
  url: required(SSO_MESSAGES.urlRequired).regex(/^ldaps?:\/\/[^/\s]+\/?$/i, SSO_MESSAGES.urlLdap),
  bindDn: required(SSO_MESSAGES.bindDnRequired),
  /** write-only; leave out (or empty) to keep the stored one */
  bindPassword: z.string().max(1024).optional(),
  baseDn: required(SSO_MESSAGES.baseDnRequired),
  userQuery: required(SSO_MESSAGES.userQueryRequired).refine(
    (v) => isFilter(v) && v.includes('{username}'),
    SSO_MESSAGES.userQueryPlaceholder,
  ),
  groupQuery: required(SSO_MESSAGES.groupQueryRequired).refine(
    (v) => isFilter(v) && (v.includes('{dn}') || v.includes('{username}')),
    SSO_MESSAGES.groupQueryPlaceholder,
  ),
  emailAttribute: z
    .string()
    .trim()
    .regex(/^[A-Za-z][A-Za-z0-9-]{0,63}$/, SSO_MESSAGES.emailAttribute)
    .default('mail'),
  enabled: z.boolean().default(false),
  groupRoles: z.array(ssoGroupRoleSchema).max(100).default([]),
  /** upgrade an ldap:// connection with the StartTLS operation before binding */
  startTls: z.boolean().default(false),
  /** accept any certificate (development directories only) */
  skipTlsVerify: z.boolean().default(false),
  /** PEM certificate(s) of the directory's CA; empty trusts the system's CAs */
  caCertificate: caCertificateSchema.default(''),
});
export type SsoSettingsRequest = z.infer<typeof ssoSettingsRequestSchema>;

export const ssoSettingsResponseSchema = z.object({
  /** false until the settings are saved once */
  configured: z.boolean(),
  url: z.string(),
  bindDn: z.string(),
  /** MASKED_SECRET when a password is stored, else '' */
  bindPassword: z.string(),
  hasBindPassword: z.boolean(),
  baseDn: z.string(),
  userQuery: z.string(),
  groupQuery: z.string(),
  emailAttribute: z.string(),
  enabled: z.boolean(),
  groupRoles: z.array(ssoGroupRoleSchema),
  startTls: z.boolean(),
  skipTlsVerify: z.boolean(),
  caCertificate: z.string(),
  updatedAt: z.string().nullable(),
  /** after a save that changed how Slipway reaches the directory */
  needsRetest: z.boolean().optional(),
  message: z.string().optional(),
});
export type SsoSettingsResponse = z.infer<typeof ssoSettingsResponseSchema>;

/** Test the saved settings, or the given ones (a missing bind password uses the stored one). */
export const ssoTestRequestSchema = ssoSettingsRequestSchema
  .partial()
  // no defaults here: a TLS field left out means "as saved"
  .extend({
    startTls: z.boolean().optional(),
    skipTlsVerify: z.boolean().optional(),
    caCertificate: caCertificateSchema.optional(),
  })
  .nullish();
export const ssoTestResponseSchema = z.object({ ok: z.boolean(), message: z.string() });

// ── OpenID Connect (G Suite, Azure) ─────────────────────────────────────────────────────────

export const OAUTH_PROVIDER_IDS = ['google', 'azure'] as const;
export const oauthProvidersResponseSchema = z.array(
  z.object({ id: z.enum(OAUTH_PROVIDER_IDS), name: z.string() }),
);
export const oauthLoginUrlQuerySchema = z.object({
  provider: z.enum(OAUTH_PROVIDER_IDS),
  intent: z.enum(['login', 'signup']).default('login'),
});
export const oauthLoginUrlResponseSchema = z.object({ url: z.string() });
export const oauthCallbackQuerySchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

/**
 * The callback sends the browser to `/login#oauth=<one-time code>` (never the session token in a
 * URL); the web app exchanges the code once, within a minute, for `{ token, projectId }`.
 */
export const OAUTH_HANDOFF_FRAGMENT = 'oauth';
export const oauthExchangeRequestSchema = z.object({
  code: z.string().trim().min(1, 'Code required').max(200),
});
export const OAUTH_HANDOFF_INVALID_MESSAGE = 'This sign-in has expired or was already used; sign in again';
