import { randomUUID } from 'node:crypto';
import {
  ALL_PERMISSIONS,
  BUILTIN_ROLE_GRANTS,
  type PermissionGrant,
  type Role,
  type RoleRequest,
} from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { isBuiltinWorkspaceRole } from './role-names.js';
import type { RoleRow } from './roles-store.js';
import type { RolesStore } from './roles-store-type.js';

const EVERYTHING: PermissionGrant[] = ALL_PERMISSIONS.map((permission) => ({ permission }));

/** The roles that live in code (spec §6): organisation admins and the general workspace roles. */
export const BUILTIN_ROLES: Role[] = [
  {
    id: 'master_admin',
    name: 'Master admin',
    description: 'Owns the organisation: everything, including making and removing master admins',
    builtIn: true,
    scope: 'organisation',
    grants: EVERYTHING,
  },
  {
    id: 'account_admin',
    name: 'Account admin',
    description: 'Administers the organisation: members, roles, service accounts and every workspace',
    builtIn: true,
    scope: 'organisation',
    grants: EVERYTHING,
  },
  {
    id: 'project_admin',
    name: 'Project admin',
    description: 'Everything in the workspaces they are project admin of',
    builtIn: true,
    scope: 'workspace',
    grants: BUILTIN_ROLE_GRANTS.project_admin,
  },
  {
    id: 'developer',
    name: 'Developer',
    description: 'Builds, deploys and runs in the workspace; cannot delete or change the workspace',
    builtIn: true,
    scope: 'workspace',
    grants: BUILTIN_ROLE_GRANTS.developer,
  },
  {
    id: 'viewer',
    name: 'Viewer',
    description: 'Sees everything in the workspace and changes nothing',
    builtIn: true,
    scope: 'workspace',
    grants: BUILTIN_ROLE_GRANTS.viewer,
  },
];

const NAME_TAKEN = 'A role with this name already exists';

/** One grant per permission; an empty environment list means every environment. */
export function normaliseGrants(grants: PermissionGrant[]): PermissionGrant[] {
  const seen = new Set<string>();
  return grants.map((g, i) => {
    if (seen.has(g.permission)) {
      const message = `${g.permission} is granted twice`;
      throw new InputError(message, [{ path: `grants.${i}.permission`, message }]);
    }
    seen.add(g.permission);
    const environments = [...new Set(g.environments ?? [])];
    return environments.length > 0
      ? { permission: g.permission, environments }
      : { permission: g.permission };
  });
}

function toRole(r: Pick<RoleRow, 'id' | 'name' | 'description' | 'grants'>): Role {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    builtIn: false,
    scope: 'workspace',
    grants: (r.grants as PermissionGrant[]) ?? [],
  };
}

/** Built-in and custom roles; custom roles are workspace roles assigned per workspace. */
export class RolesService {
  constructor(private readonly store: RolesStore) {}

  async list(organisationId: string): Promise<Role[]> {
    return [...BUILTIN_ROLES, ...(await this.store.list(organisationId)).map(toRole)];
  }

  async create(organisationId: string, input: RoleRequest): Promise<Role> {
    const grants = normaliseGrants(input.grants);
    await this.assertNameFree(organisationId, input.name);
    const id = randomUUID();
    await this.write(() =>
      this.store.create({ id, organisationId, name: input.name, description: input.description, grants }),
    );
    return toRole({ id, name: input.name, description: input.description, grants });
  }

  async update(organisationId: string, id: string, input: RoleRequest): Promise<Role> {
    await this.custom(organisationId, id);
    const grants = normaliseGrants(input.grants);
    await this.assertNameFree(organisationId, input.name, id);
    await this.write(() =>
      this.store.update(id, { name: input.name, description: input.description, grants }),
    );
    return toRole({ id, name: input.name, description: input.description, grants });
  }

  async remove(organisationId: string, id: string) {
    await this.custom(organisationId, id);
    if (!(await this.store.deleteUnlessAssigned(organisationId, id))) {
      throw new ConflictError(
        'This role is assigned to members, service accounts or invites; reassign them first',
      );
    }
  }

  private async custom(organisationId: string, id: string): Promise<RoleRow> {
    if (isBuiltinWorkspaceRole(id) || BUILTIN_ROLES.some((r) => r.id === id)) {
      throw new InputError('Built-in roles cannot be changed or deleted');
    }
    const row = await this.store.get(organisationId, id);
    if (!row) throw new NotFoundError('Role not found');
    return row;
  }

  private async assertNameFree(organisationId: string, name: string, exceptId?: string) {
    const builtIn = BUILTIN_ROLES.some((r) => r.name.toLowerCase() === name.toLowerCase());
    if (builtIn || (await this.store.nameTaken(organisationId, name, exceptId)))
      throw new ConflictError(NAME_TAKEN);
  }

  private async write(fn: () => Promise<void>) {
    try {
      await fn();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(NAME_TAKEN);
      throw err;
    }
  }
}
