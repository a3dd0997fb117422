import { z } from 'zod';
import { ORGANISATION_ROLES } from './permissions.js';
import { workspaceRoleNameSchema } from './roles.js';

/**
 * Members of an organisation and of its workspaces (issue 3, spec §3, §6): one schema per request
 * and per response.
 */

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
export const LAST_ADMIN_MESSAGE = 'An organisation must keep at least one admin';
