import { z } from 'zod';

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
