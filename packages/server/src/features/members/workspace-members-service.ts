import {
  ALREADY_IN_WORKSPACE_MESSAGE,
  MESSAGES,
  NOT_IN_WORKSPACE_MESSAGE,
  type ListQuery,
  type OrganisationRole,
  type PermissionGrant,
  type WorkspaceMember,
} from '@slipway/contracts';
import { isAdminRole, roleGrants } from '../../platform/auth/grants.js';
import { ConflictError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import { assertWorkspaceRole, isBuiltinWorkspaceRole } from '../roles/role-names.js';
import type { RolesStore } from '../roles/roles-store-type.js';
import { memberPageOf } from './members-service.js';
import type { MembersStore } from './members-store-type.js';

/** Who acts on a workspace's members: their organisation, the workspace, and their grants in it. */
export interface WorkspaceActor {
  /** null for a service account */
  userId: string | null;
  organisationId: string;
  workspaceId: string;
  /** the caller's grants in the workspace (an organisation admin holds every permission) */
  grants: PermissionGrant[];
}

/** Does `held` cover `grant`: the same permission, in every environment the grant names? */
function covers(held: PermissionGrant, grant: PermissionGrant): boolean {
  if (held.permission !== grant.permission) return false;
  if (!held.environments || held.environments.length === 0) return true;
  if (!grant.environments || grant.environments.length === 0) return false;
  return grant.environments.every((e) => held.environments!.includes(e));
}

/** Is every grant of a role held by the caller? Nobody hands out more than they hold. */
export function withinGrants(role: readonly PermissionGrant[], held: readonly PermissionGrant[]): boolean {
  return role.every((g) => held.some((h) => covers(h, g)));
}

/**
 * The members of one workspace, managed by whoever holds the members permissions there: an
 * organisation admin, or the workspace's project admin. A project admin adds members of the
 * organisation, changes their role in this workspace and takes them out of it; they never touch
 * organisation roles, other workspaces, organisation admins, or a role holding more than their own.
 */
export class WorkspaceMembersService {
  constructor(
    private readonly store: MembersStore,
    private readonly roles: RolesStore,
  ) {}

  async list(workspaceId: string, q: ListQuery): Promise<{ total: number; members: WorkspaceMember[] }> {
    const { total, rows } = await this.store.workspacePage(workspaceId, memberPageOf(q));
    return {
      total,
      members: rows.map((r) => ({ ...r, organisationRole: r.organisationRole as OrganisationRole })),
    };
  }

  async add(actor: WorkspaceActor, userId: string, role: string) {
    await this.assertMayManage(actor, userId);
    await this.assertMayGive(actor, role, 'role');
    if (!(await this.store.addToWorkspace(actor.workspaceId, userId, role))) {
      throw new ConflictError(ALREADY_IN_WORKSPACE_MESSAGE);
    }
  }

  async changeRole(actor: WorkspaceActor, userId: string, role: string) {
    await this.assertMayManage(actor, userId);
    const current = await this.store.workspaceRoleOf(actor.workspaceId, userId);
    if (!current) throw new NotFoundError(NOT_IN_WORKSPACE_MESSAGE);
    await this.assertMayGive(actor, current);
    await this.assertMayGive(actor, role, 'role');
    await this.store.setWorkspaceRole(actor.workspaceId, userId, role);
  }

  async remove(actor: WorkspaceActor, userId: string) {
    await this.assertMayManage(actor, userId);
    const current = await this.store.workspaceRoleOf(actor.workspaceId, userId);
    if (!current) throw new NotFoundError(NOT_IN_WORKSPACE_MESSAGE);
    await this.assertMayGive(actor, current);
    if (!(await this.store.removeFromWorkspace(actor.workspaceId, userId))) {
      throw new NotFoundError(NOT_IN_WORKSPACE_MESSAGE);
    }
  }

  /** The person must be a member of the organisation; only its admins act on its admins. */
  private async assertMayManage(actor: WorkspaceActor, userId: string) {
    const targetRole = await this.store.roleOf(actor.organisationId, userId);
    if (!targetRole) throw new NotFoundError('Member not found');
    if (!isAdminRole(targetRole)) return;
    const actorRole = actor.userId ? await this.store.roleOf(actor.organisationId, actor.userId) : null;
    if (!isAdminRole(actorRole)) throw new NotAllowedError(MESSAGES.actionNotAllowed);
  }

  /** A role (built-in or custom) may be given or taken away only by someone holding all it grants. */
  private async assertMayGive(actor: WorkspaceActor, role: string, path?: string) {
    if (path) await assertWorkspaceRole(this.roles, actor.organisationId, role, path);
    const custom = isBuiltinWorkspaceRole(role) ? null : await this.roles.get(actor.organisationId, role);
    const grants = (custom?.grants as PermissionGrant[] | undefined) ?? null;
    if (!withinGrants(roleGrants(role, grants), actor.grants)) {
      throw new NotAllowedError(MESSAGES.actionNotAllowed);
    }
  }
}
