import { z } from 'zod';
import { permissionGrantSchema } from './roles.js';
import { ORGANISATION_ROLES } from './permissions.js';

/** What the caller may do: GET /api/access/permissions. */
export const callerPermissionsSchema = z.object({
  organisationRole: z.enum(ORGANISATION_ROLES).nullable(),
  organisation: z.array(permissionGrantSchema),
  /** the workspace these grants are for; null when none was named or it is not visible */
  workspaceId: z.string().nullable(),
  /** built-in role name, custom role id, or 'admin' for organisation admins */
  workspaceRole: z.string().nullable(),
  workspace: z.array(permissionGrantSchema),
});
export type CallerPermissions = z.infer<typeof callerPermissionsSchema>;
