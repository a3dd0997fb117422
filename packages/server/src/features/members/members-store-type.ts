export type ChangeOutcome = 'done' | 'not_member' | 'last_admin';
/** What a members list sorts on (the keys of MEMBER_SORTS in members-store.ts). */
export type MemberSort =
  'id' | 'userId' | 'email' | 'firstName' | 'lastName' | 'organisationRole' | 'role' | 'joinedAt';

/** A page of members: which rows (`start` inclusive, `end` exclusive), sorted how. */
export interface MemberPageQuery {
  start: number;
  end: number;
  sort: MemberSort;
  order: 'ASC' | 'DESC';
}

/** A member as a list shows them: the person and their organisation role. */
interface MemberPerson {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  organisationRole: string;
}

export interface MemberPageRow extends MemberPerson {
  joinedAt: Date;
}

export interface WorkspaceMemberPageRow extends MemberPerson {
  role: string;
}

export interface MemberWorkspaceRole {
  userId: string;
  workspaceId: string;
  workspaceName: string;
  role: string;
}

/**
 * What the members, workspace members and invites services need of storage; MembersStore (SQL)
 * and FakeMembersStore implement it.
 */
export interface MembersStore {
  /** A page of the organisation's members (ties by user id), with the total. */
  page(organisationId: string, q: MemberPageQuery): Promise<{ total: number; rows: MemberPageRow[] }>;
  /** The workspace roles, in the organisation's workspaces by name, of the given people. */
  workspaceRoles(organisationId: string, userIds: string[]): Promise<MemberWorkspaceRole[]>;
  /** The person's organisation role, or null when they are not a member. */
  roleOf(organisationId: string, userId: string): Promise<string | null>;
  workspaceInOrganisation(organisationId: string, workspaceId: string): Promise<boolean>;
  /**
   * Changes the organisation role (or, with null, removes the member from the organisation and
   * its workspaces and ends their sessions in it) unless no admin would remain.
   */
  changeRole(organisationId: string, userId: string, next: string | null): Promise<ChangeOutcome>;
  /** Adds the person to the workspace with the role, or changes their role there. */
  setWorkspaceRole(workspaceId: string, userId: string, role: string): Promise<void>;
  /** A page of one workspace's members with their role there, with the total. */
  workspacePage(
    workspaceId: string,
    q: MemberPageQuery,
  ): Promise<{ total: number; rows: WorkspaceMemberPageRow[] }>;
  /** The person's role in the workspace, or null when they are not in it. */
  workspaceRoleOf(workspaceId: string, userId: string): Promise<string | null>;
  /** Adds the person to the workspace; false when they are in it already. */
  addToWorkspace(workspaceId: string, userId: string, role: string): Promise<boolean>;
  /** false when they were not in it. */
  removeFromWorkspace(workspaceId: string, userId: string): Promise<boolean>;
}
