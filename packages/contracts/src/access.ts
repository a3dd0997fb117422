import { z } from 'zod';
import { MESSAGES } from './messages.js';
import {
  ALL_PERMISSIONS,
  ORGANISATION_RESOURCES,
  ORGANISATION_ROLES,
  PERMISSION_ACTIONS,
  PERMISSION_RESOURCES,
  type Permission,
} from './permissions.js';
import { emailSchema, nameSchema } from './validation.js';

/**
 * Organisations, workspaces, members, invites, roles and service accounts (issue 3, spec §3, §6):
 * one schema per request and per response.
 */

// ── organisations and workspaces ───────────────────────────────────────────────────────────
export const organisationSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ORGANISATION_ROLES),
  /** the organisation the caller's session is in */
  current: z.boolean(),
  /** no run of the organisation lasts longer than this many minutes (null: only the run's own timeout) */
  maxRunMinutes: z.number().int().nullable(),
});
export type Organisation = z.infer<typeof organisationSchema>;
export const organisationListSchema = z.array(organisationSchema);

/** The longest cap an organisation may put on a run's duration: 7 days, in minutes. */
export const MAX_RUN_MINUTES_LIMIT = 10_080;
export const MAX_RUN_MINUTES_RULE_MESSAGE =
  'Maximum run duration must be a whole number of minutes from 1 to 10080 (7 days)';
/** An organisation's cap on any run's duration, in minutes; null for none. */
export const maxRunMinutesSchema = z
  .number({ message: MAX_RUN_MINUTES_RULE_MESSAGE })
  .int(MAX_RUN_MINUTES_RULE_MESSAGE)
  .min(1, MAX_RUN_MINUTES_RULE_MESSAGE)
  .max(MAX_RUN_MINUTES_LIMIT, MAX_RUN_MINUTES_RULE_MESSAGE)
  .nullable();
export const ORGANISATION_UPDATE_EMPTY_MESSAGE = 'Give a name or a maximum run duration';
/** An organisation's settings: its name, its cap on a run's duration, or both. */
export const organisationUpdateRequestSchema = z
  .object({ name: nameSchema().optional(), maxRunMinutes: maxRunMinutesSchema.optional() })
  .refine((body) => body.name !== undefined || body.maxRunMinutes !== undefined, {
    message: ORGANISATION_UPDATE_EMPTY_MESSAGE,
  });
export type OrganisationUpdateRequest = z.infer<typeof organisationUpdateRequestSchema>;

export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  organisationId: z.string(),
  /** the caller's role in it: a built-in role name, a custom role's id, or 'admin' */
  role: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;
export const workspaceListSchema = z.array(workspaceSchema);
export const workspaceRequestSchema = z.object({ name: nameSchema() });

export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });

// ── members ────────────────────────────────────────────────────────────────────────────────
/** A workspace role: a built-in role name or a custom role's id. */
export const workspaceRoleNameSchema = z.string().trim().min(1, 'Role required').max(100);

export const memberWorkspaceSchema = z.object({
  workspaceId: z.string(),
  workspaceName: z.string(),
  role: z.string(),
});
export const memberSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  organisationRole: z.enum(ORGANISATION_ROLES),
  joinedAt: z.string(),
  workspaces: z.array(memberWorkspaceSchema),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

export const memberParamsSchema = z.object({ userId: z.string().min(1).max(100) });
export const memberWorkspaceParamsSchema = z.object({
  userId: z.string().min(1).max(100),
  workspaceId: z.string().min(1).max(100),
});
/** 'Make Account admin' sets account_admin; only a master admin may make or unmake master admins. */
export const memberRoleRequestSchema = z.object({ organisationRole: z.enum(ORGANISATION_ROLES) });
/** 'Make Admin' / 'Make Project Admin' set project_admin in a workspace. */
export const memberWorkspaceRoleRequestSchema = z.object({ role: workspaceRoleNameSchema });

// ── members of one workspace (managed by its project admins) ──────────────────────────────
/** A member of the workspace named by x-workspace-id, with their role there. */
export const workspaceMemberSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  organisationRole: z.enum(ORGANISATION_ROLES),
  role: z.string(),
});
export type WorkspaceMember = z.infer<typeof workspaceMemberSchema>;
export const workspaceMemberListSchema = z.array(workspaceMemberSchema);
/** Adds an existing member of the organisation to the workspace with a role. */
export const workspaceMemberAddRequestSchema = z.object({
  userId: z.string().trim().min(1, 'Member required').max(100),
  role: workspaceRoleNameSchema,
});
export type WorkspaceMemberAddRequest = z.infer<typeof workspaceMemberAddRequestSchema>;
export const ALREADY_IN_WORKSPACE_MESSAGE = 'The member is already in this workspace';
export const NOT_IN_WORKSPACE_MESSAGE = 'The member is not in this workspace';

// ── invites ────────────────────────────────────────────────────────────────────────────────
export const INVITABLE_ORGANISATION_ROLES = ['account_admin', 'member'] as const;

export const inviteCreateRequestSchema = z.object({
  email: emailSchema,
  organisationRole: z.enum(INVITABLE_ORGANISATION_ROLES).default('member'),
  workspaceId: z.string().min(1).max(100).optional(),
  workspaceRole: workspaceRoleNameSchema.optional(),
});
export type InviteCreateRequest = z.infer<typeof inviteCreateRequestSchema>;

export const inviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  organisationRole: z.string(),
  workspaceId: z.string().nullable(),
  workspaceRole: z.string().nullable(),
  invitedBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invite = z.infer<typeof inviteSchema>;
export const inviteListSchema = z.array(inviteSchema);

export const inviteLookupQuerySchema = z.object({ token: z.string().min(1).max(200) });
export const inviteLookupResponseSchema = z.object({
  email: z.string(),
  organisationName: z.string(),
  existingUser: z.boolean(),
});

/** A new person gives name and password; an existing one is signed in, or gives their password. */
export const inviteAcceptRequestSchema = z.object({
  token: z.string().min(1).max(200),
  firstName: nameSchema().optional(),
  lastName: nameSchema().optional(),
  password: z.string().max(256).optional(),
});
export type InviteAcceptRequest = z.infer<typeof inviteAcceptRequestSchema>;

export const INVITE_INVALID_MESSAGE = 'This invite is invalid or has expired';
export const LAST_ADMIN_MESSAGE = 'An organisation must keep at least one admin';

// ── roles and permissions ──────────────────────────────────────────────────────────────────
export const permissionSchema = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]]);
export const permissionGrantSchema = z.object({
  permission: permissionSchema,
  environments: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
});

export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  builtIn: z.boolean(),
  /** organisation roles are held in the organisation; workspace roles per workspace */
  scope: z.enum(['organisation', 'workspace']),
  grants: z.array(permissionGrantSchema),
});
export type Role = z.infer<typeof roleSchema>;
export const roleListSchema = z.array(roleSchema);

export const roleRequestSchema = z.object({
  name: nameSchema(),
  description: z.string().trim().max(500).default(''),
  grants: z.array(permissionGrantSchema).max(ALL_PERMISSIONS.length),
});
export type RoleRequest = z.infer<typeof roleRequestSchema>;

export const permissionCatalogueSchema = z.object({
  resources: z.array(z.string()),
  actions: z.array(z.string()),
  organisationResources: z.array(z.string()),
  permissions: z.array(z.string()),
});
export const PERMISSION_CATALOGUE = {
  resources: [...PERMISSION_RESOURCES],
  actions: [...PERMISSION_ACTIONS],
  organisationResources: [...ORGANISATION_RESOURCES],
  permissions: [...ALL_PERMISSIONS],
};

// ── service accounts ───────────────────────────────────────────────────────────────────────
export const SERVICE_ACCOUNT_MAX_LIFETIME_DAYS = 366;

const isoDate = z
  .string({ message: MESSAGES.invalidDate })
  .regex(/^\d{4}-\d{2}-\d{2}(T.*)?$/, MESSAGES.invalidDate)
  .refine((v) => !Number.isNaN(Date.parse(v)), MESSAGES.invalidDate);

export const serviceAccountWorkspaceSchema = z.object({
  workspaceId: z.string().min(1).max(100),
  role: workspaceRoleNameSchema,
});
export const serviceAccountWorkspacesSchema = z
  .array(serviceAccountWorkspaceSchema)
  .max(500)
  .refine((list) => new Set(list.map((w) => w.workspaceId)).size === list.length, 'Each workspace once');

export const serviceAccountCreateRequestSchema = z.object({
  name: nameSchema(),
  /** ISO date or date-time; in the future and at most a year away */
  expiresAt: isoDate,
  workspaces: serviceAccountWorkspacesSchema.default([]),
});
export type ServiceAccountCreateRequest = z.infer<typeof serviceAccountCreateRequestSchema>;
export const serviceAccountWorkspacesRequestSchema = z.object({ workspaces: serviceAccountWorkspacesSchema });

export const serviceAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  tokenPrefix: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  workspaces: z.array(serviceAccountWorkspaceSchema),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;
export const serviceAccountListSchema = z.array(serviceAccountSchema);

/** The only answer that ever carries the token. */
export const serviceAccountCreatedSchema = z.object({
  id: z.string(),
  name: z.string(),
  token: z.string(),
  tokenPrefix: z.string(),
  expiresAt: z.string(),
});
