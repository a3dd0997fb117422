import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { workspaceRoleNameSchema } from './roles.js';
import { nameSchema } from './validation.js';
import { idAndName } from './shared.js';

/** Service accounts and their tokens (issue 3, spec §3, §6): one schema per request and per response. */

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
  ...idAndName(),
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
  ...idAndName(),
  token: z.string(),
  tokenPrefix: z.string(),
  expiresAt: z.string(),
});
