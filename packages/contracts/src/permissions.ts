/** The organisation-wide areas, first in the catalogue. */
const ORGANISATION_WIDE = [
  'organisation',
  'members',
  'roles',
  'serviceAccounts',
  'audit',
  'billing',
  'sso',
] as const;

/**
 * The permission catalogue (spec §6): every area of the product × view, create, edit, delete,
 * execute. A grant may be narrowed to named environments, which is how a role says "may run
 * pipelines in staging but not in production".
 */
export const PERMISSION_RESOURCES = [
  ...ORGANISATION_WIDE,
  // workspace-scoped
  'workspace',
  'applications',
  'pipelines',
  'pipelineTemplates',
  'taskTemplates',
  'releases',
  'schedules',
  'snapshots',
  'webhooks',
  'secrets',
  'helm',
  'providers',
  'repositories',
  'registries',
  'clusters',
  'environments',
  'backups',
  'alerts',
  'notifications',
  'security',
  'dora',
  'blockchain',
] as const;
export type PermissionResource = (typeof PERMISSION_RESOURCES)[number];

export const PERMISSION_ACTIONS = ['view', 'create', 'edit', 'delete', 'execute'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export type Permission = `${PermissionResource}:${PermissionAction}`;

/** Resources whose permissions apply to the whole organisation rather than one workspace. */
export const ORGANISATION_RESOURCES: readonly PermissionResource[] = ORGANISATION_WIDE;

export const ALL_PERMISSIONS: Permission[] = PERMISSION_RESOURCES.flatMap((r) =>
  PERMISSION_ACTIONS.map((a) => `${r}:${a}` as Permission),
);

export function isPermission(value: string): value is Permission {
  return (ALL_PERMISSIONS as string[]).includes(value);
}

export function isOrganisationPermission(p: Permission): boolean {
  return ORGANISATION_RESOURCES.includes(p.split(':')[0] as PermissionResource);
}

/** One grant of a role: a permission, optionally only in the named environments. */
export interface PermissionGrant {
  permission: Permission;
  /** Environment names this grant is limited to; absent means every environment. */
  environments?: string[];
}

/** Organisation-level roles. */
export const ORGANISATION_ROLES = ['master_admin', 'account_admin', 'member'] as const;
export type OrganisationRole = (typeof ORGANISATION_ROLES)[number];

/** Built-in workspace roles ("general roles"); custom roles are stored per organisation. */
export const BUILTIN_WORKSPACE_ROLES = ['project_admin', 'developer', 'viewer'] as const;
export type BuiltinWorkspaceRole = (typeof BUILTIN_WORKSPACE_ROLES)[number];

const WORKSPACE_RESOURCES = PERMISSION_RESOURCES.filter((r) => !ORGANISATION_RESOURCES.includes(r));
const everything = (resources: readonly PermissionResource[]) =>
  resources.flatMap((r) => PERMISSION_ACTIONS.map((a) => ({ permission: `${r}:${a}` as Permission })));

/** What each built-in workspace role grants. Admins of the organisation are granted everything. */
export const BUILTIN_ROLE_GRANTS: Record<BuiltinWorkspaceRole, PermissionGrant[]> = {
  project_admin: [
    ...everything(WORKSPACE_RESOURCES),
    { permission: 'members:view' },
    { permission: 'members:create' },
    { permission: 'members:edit' },
    { permission: 'members:delete' },
    { permission: 'roles:view' },
    { permission: 'audit:view' },
    { permission: 'organisation:view' },
  ],
  developer: [
    ...WORKSPACE_RESOURCES.flatMap((r) =>
      (['view', 'create', 'edit', 'execute'] as const).map((a) => ({
        permission: `${r}:${a}` as Permission,
      })),
    ).filter((g) => g.permission !== 'workspace:edit'),
    { permission: 'members:view' },
    { permission: 'roles:view' },
    { permission: 'organisation:view' },
  ],
  viewer: [
    ...WORKSPACE_RESOURCES.map((r) => ({ permission: `${r}:view` as Permission })),
    { permission: 'members:view' },
    { permission: 'organisation:view' },
  ],
};

/** Does this set of grants allow the permission (in this environment, when one is named)? */
export function grantsAllow(
  grants: readonly PermissionGrant[],
  permission: Permission,
  environment?: string,
): boolean {
  return grants.some(
    (g) =>
      g.permission === permission &&
      (!g.environments ||
        g.environments.length === 0 ||
        (environment !== undefined && g.environments.includes(environment))),
  );
}
