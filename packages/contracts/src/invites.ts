import { z } from 'zod';
import { workspaceRoleNameSchema } from './roles.js';
import { emailSchema, nameSchema } from './validation.js';

/** Invites to an organisation and, optionally, a workspace (issue 3, spec §3, §6). */

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
