import { z } from 'zod';
import {
  ALL_PERMISSIONS,
  ORGANISATION_RESOURCES,
  PERMISSION_ACTIONS,
  PERMISSION_RESOURCES,
  type Permission,
} from './permissions.js';
import { nameSchema } from './validation.js';
import { idAndName } from './shared.js';

/** Roles and their permission grants (issue 3, spec §3, §6): one schema per request and per response. */

/** A workspace role: a built-in role name or a custom role's id. */
export const workspaceRoleNameSchema = z.string().trim().min(1, 'Role required').max(100);

export const permissionSchema = z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]]);
export const permissionGrantSchema = z.object({
  permission: permissionSchema,
  environments: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
});

export const roleSchema = z.object({
  ...idAndName(),
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
