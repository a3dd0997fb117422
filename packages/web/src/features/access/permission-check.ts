import {
  grantsAllow,
  isOrganisationPermission,
  type CallerPermissions,
  type Permission,
} from '@slipway/contracts';

/**
 * Permissions the server checks against the organisation's grants although their resource is a
 * workspace one: creating, renaming and deleting workspaces.
 */
const CHECKED_IN_ORGANISATION = new Set<Permission>([
  'workspace:create',
  'workspace:edit',
  'workspace:delete',
]);

export function isCheckedInOrganisation(permission: Permission): boolean {
  return isOrganisationPermission(permission) || CHECKED_IN_ORGANISATION.has(permission);
}

/**
 * Does the caller hold the permission? Organisation permissions are read from the organisation's
 * grants, the rest from the current workspace's. Without an environment, a grant limited to some
 * environments is enough (the user may act in those, as the server's route check); with one, the
 * grant must cover it.
 */
export function callerAllows(
  caller: CallerPermissions | undefined,
  permission: Permission,
  environment?: string,
): boolean {
  if (!caller) return false;
  const grants = isCheckedInOrganisation(permission) ? caller.organisation : caller.workspace;
  if (environment !== undefined) return grantsAllow(grants, permission, environment);
  return grants.some((g) => g.permission === permission);
}
