import { BUILTIN_WORKSPACE_ROLES, type Role, type RoleRequest } from '@slipway/contracts';
import { api } from '../../app/api';
import { resourceEndpoints } from '../../app/resource-endpoints';

/** Built-in and custom roles (`/api/roles`). */
export const rolesApi = api.enhanceEndpoints({ addTagTypes: ['Role', 'Permissions'] }).injectEndpoints({
  endpoints: (build) => ({
    ...resourceEndpoints<{ row: Role; create: RoleRequest }>()(build, {
      name: 'role',
      url: 'roles',
      ops: ['all', 'create', 'delete'],
    }),
    updateRole: build.mutation<Role, { id: string; body: RoleRequest }>({
      query: ({ id, body }) => ({ url: `roles/${encodeURIComponent(id)}`, method: 'PUT', body }),
      // someone holding the role, perhaps the caller, may now do more or less
      invalidatesTags: [{ type: 'Role', id: 'LIST' }, 'Permissions'],
    }),
  }),
});

export const { useRolesQuery, useCreateRoleMutation, useUpdateRoleMutation, useDeleteRoleMutation } =
  rolesApi;

/** Roles that can be held in a workspace (built-in general roles and custom roles). */
export function workspaceRoles(roles: readonly Role[] | undefined): Role[] {
  return (roles ?? []).filter((r) => r.scope === 'workspace');
}

/** A role's display name: custom roles are held by id, built-in ones by name. */
export function roleLabel(roles: readonly Role[] | undefined, idOrName: string): string {
  const role = roles?.find((r) => r.id === idOrName || r.name === idOrName);
  return role?.name ?? idOrName;
}

/** Workspace roles to choose from; the built-in ones when the list is not (yet) there. */
export function workspaceRoleOptions(roles: readonly Role[] | undefined): Pick<Role, 'id' | 'name'>[] {
  const own = workspaceRoles(roles);
  if (own.length > 0) return own;
  return BUILTIN_WORKSPACE_ROLES.map((id) => ({ id, name: BUILTIN_ROLE_NAMES[id] }));
}

const BUILTIN_ROLE_NAMES: Record<(typeof BUILTIN_WORKSPACE_ROLES)[number], string> = {
  project_admin: 'Project admin',
  developer: 'Developer',
  viewer: 'Viewer',
};
