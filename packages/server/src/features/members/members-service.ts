import {
  LAST_ADMIN_MESSAGE,
  MESSAGES,
  type ListQuery,
  type Member,
  type OrganisationRole,
} from '@slipway/contracts';
import { sortOf } from '../../platform/database/paging.js';
import { ConflictError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import { assertWorkspaceRole } from '../roles/role-names.js';
import type { RoleLookup } from '../roles/roles-store.js';
import { MEMBER_SORTS, type ChangeOutcome } from './members-store.js';
import type { MemberPageQuery, MembersStore } from './members-store-type.js';

export interface Actor {
  userId: string;
  organisationId: string;
}

/** The page of members a list query asks for; its `_sort` must be one of MEMBER_SORTS. */
export function memberPageOf(q: ListQuery): MemberPageQuery {
  return { start: q._start, end: q._end, sort: sortOf(q._sort, MEMBER_SORTS), order: q._order };
}

function settle(outcome: ChangeOutcome) {
  if (outcome === 'not_member') throw new NotFoundError('Member not found');
  if (outcome === 'last_admin') throw new ConflictError(LAST_ADMIN_MESSAGE);
}

/** Members of an organisation: list, organisation role, workspace roles, removal. */
export class MembersService {
  constructor(
    private readonly store: MembersStore,
    private readonly roles: RoleLookup,
  ) {}

  async list(organisationId: string, q: ListQuery): Promise<{ total: number; members: Member[] }> {
    const { total, rows } = await this.store.page(organisationId, memberPageOf(q));
    const roles = await this.store.workspaceRoles(
      organisationId,
      rows.map((r) => r.userId),
    );
    const members = rows.map((r) => ({
      ...r,
      organisationRole: r.organisationRole as OrganisationRole,
      joinedAt: r.joinedAt.toISOString(),
      workspaces: roles
        .filter((w) => w.userId === r.userId)
        .map((w) => ({ workspaceId: w.workspaceId, workspaceName: w.workspaceName, role: w.role })),
    }));
    return { total, members };
  }

  /** 'Make Account admin' and back; only a master admin makes or unmakes master admins. */
  async changeRole(actor: Actor, userId: string, next: OrganisationRole) {
    const current = await this.store.roleOf(actor.organisationId, userId);
    if (!current) throw new NotFoundError('Member not found');
    if (current === next) return;
    await this.assertMayTouch(actor, current, next);
    settle(await this.store.changeRole(actor.organisationId, userId, next));
  }

  /** Removes the person from the organisation and its workspaces; their sessions in it end. */
  async remove(actor: Actor, userId: string) {
    const current = await this.store.roleOf(actor.organisationId, userId);
    if (!current) throw new NotFoundError('Member not found');
    await this.assertMayTouch(actor, current, null);
    settle(await this.store.changeRole(actor.organisationId, userId, null));
  }

  /** Assigns or changes a workspace role: built-in or a custom role of this organisation. */
  async setWorkspaceRole(organisationId: string, userId: string, workspaceId: string, role: string) {
    await this.assertMemberAndWorkspace(organisationId, userId, workspaceId);
    await assertWorkspaceRole(this.roles, organisationId, role);
    await this.store.setWorkspaceRole(workspaceId, userId, role);
  }

  async removeFromWorkspace(organisationId: string, userId: string, workspaceId: string) {
    await this.assertMemberAndWorkspace(organisationId, userId, workspaceId);
    if (!(await this.store.removeFromWorkspace(workspaceId, userId))) {
      throw new NotFoundError('The member is not in this workspace');
    }
  }

  private async assertMemberAndWorkspace(organisationId: string, userId: string, workspaceId: string) {
    if (!(await this.store.roleOf(organisationId, userId))) throw new NotFoundError('Member not found');
    if (!(await this.store.workspaceInOrganisation(organisationId, workspaceId))) {
      throw new NotFoundError('Workspace not found');
    }
  }

  private async assertMayTouch(actor: Actor, current: string, next: string | null) {
    if (current !== 'master_admin' && next !== 'master_admin') return;
    const actorRole = await this.store.roleOf(actor.organisationId, actor.userId);
    if (actorRole !== 'master_admin') throw new NotAllowedError(MESSAGES.actionNotAllowed);
  }
}
