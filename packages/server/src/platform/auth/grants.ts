import {
  ALL_PERMISSIONS,
  BUILTIN_ROLE_GRANTS,
  grantsAllow,
  isOrganisationPermission,
  type BuiltinWorkspaceRole,
  type Permission,
  type PermissionGrant,
} from '@slipway/contracts';
import type { WorkspaceStanding } from './access-store-type.js';

const ADMIN_ROLES = new Set(['master_admin', 'account_admin']);
const EVERYTHING: PermissionGrant[] = ALL_PERMISSIONS.map((permission) => ({ permission }));
/** What a plain member of an organisation may do at organisation level. */
const MEMBER_ORGANISATION_GRANTS: PermissionGrant[] = [
  { permission: 'organisation:view' },
  { permission: 'members:view' },
  { permission: 'roles:view' },
];

export function isAdminRole(role: string | null | undefined): boolean {
  return role != null && ADMIN_ROLES.has(role);
}

/** The grants a role name stands for: a built-in one, or the custom role's own. */
export function roleGrants(role: string | null, customGrants: PermissionGrant[] | null): PermissionGrant[] {
  if (!role) return [];
  if (role in BUILTIN_ROLE_GRANTS) return BUILTIN_ROLE_GRANTS[role as BuiltinWorkspaceRole];
  return customGrants ?? [];
}

/** Can the caller see this workspace at all? Admins of its organisation and its members can. */
export function canSeeWorkspace(standing: WorkspaceStanding, callerOrganisationId: string): boolean {
  if (standing.organisationId !== callerOrganisationId) return false;
  return isAdminRole(standing.organisationRole) || standing.workspaceRole !== null;
}

/** The grants the caller holds in a workspace. */
export function workspaceGrants(standing: WorkspaceStanding): PermissionGrant[] {
  if (isAdminRole(standing.organisationRole)) return EVERYTHING;
  return roleGrants(standing.workspaceRole, standing.customGrants);
}

/** The grants an organisation role holds at organisation level. */
export function organisationGrants(role: string | null): PermissionGrant[] {
  if (isAdminRole(role)) return EVERYTHING;
  return role ? MEMBER_ORGANISATION_GRANTS : [];
}

export function allows(grants: PermissionGrant[], permission: Permission, environment?: string): boolean {
  return grantsAllow(grants, permission, environment);
}

export { isOrganisationPermission };

/** Holds the permission in at least one environment: enough to reach a route; the service checks which. */
export function holds(grants: PermissionGrant[], permission: Permission): boolean {
  return grants.some((g) => g.permission === permission);
}
