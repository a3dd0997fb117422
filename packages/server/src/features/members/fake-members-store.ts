import { isAdminRole } from '../../platform/auth/grants.js';
import { pageRows, sortRows } from '../../platform/database/fake-rows.js';
import { leavesNoAdmin } from './last-admin.js';
import type { ChangeOutcome, MemberSort } from './members-store.js';
import type { MemberPageQuery, MembersStore } from './members-store-type.js';

export interface FakePerson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  currentOrganisationId?: string | null;
}

interface OrganisationMember {
  organisationId: string;
  userId: string;
  role: string;
  createdAt: Date;
}

/**
 * Organisations' members and workspace roles in memory, as the SQL store reads and changes them:
 * organisation scoping, pages sorted with ties by user id, the last-admin rule, and a removal
 * that takes the person out of the organisation's workspaces and ends their sessions in it.
 * Tests set the scene with addPerson, addMember and addWorkspace.
 */
export class FakeMembersStore implements MembersStore {
  readonly people = new Map<string, Required<FakePerson>>();
  private readonly workspaces = new Map<string, { id: string; organisationId: string; name: string }>();
  private organisationMembers: OrganisationMember[] = [];
  private workspaceMembers: { workspaceId: string; userId: string; role: string }[] = [];
  /** (user, organisation) pairs whose sessions a removal ended */
  readonly endedSessions: { userId: string; organisationId: string }[] = [];

  addPerson(person: FakePerson): void {
    this.people.set(person.id, { currentOrganisationId: null, ...person });
  }

  addMember(organisationId: string, person: FakePerson, role: string, joinedAt = new Date()): void {
    if (!this.people.has(person.id)) this.addPerson(person);
    this.organisationMembers.push({ organisationId, userId: person.id, role, createdAt: joinedAt });
  }

  addWorkspace(workspace: { id: string; organisationId: string; name: string }): void {
    this.workspaces.set(workspace.id, { ...workspace });
  }

  async page(organisationId: string, q: MemberPageQuery) {
    const rows = this.organisationMembers
      .filter((m) => m.organisationId === organisationId && this.people.has(m.userId))
      .map((m) => {
        const p = this.people.get(m.userId)!;
        return {
          userId: p.id,
          firstName: p.firstName,
          lastName: p.lastName,
          email: p.email,
          organisationRole: m.role,
          joinedAt: m.createdAt,
        };
      });
    const key = memberSortKey(q.sort);
    return pageRows(
      rows,
      window(q),
      (r) => r[key === 'role' ? 'organisationRole' : key],
      (r) => r.userId,
    );
  }

  async workspaceRoles(organisationId: string, userIds: string[]) {
    const rows = this.workspaceMembers.flatMap((m) => {
      const w = this.workspaces.get(m.workspaceId);
      return w && w.organisationId === organisationId && userIds.includes(m.userId)
        ? [{ userId: m.userId, workspaceId: w.id, workspaceName: w.name, role: m.role }]
        : [];
    });
    return sortRows(rows, (r) => r.workspaceName);
  }

  async roleOf(organisationId: string, userId: string) {
    return this.member(organisationId, userId)?.role ?? null;
  }

  async workspaceInOrganisation(organisationId: string, workspaceId: string) {
    return this.workspaces.get(workspaceId)?.organisationId === organisationId;
  }

  async changeRole(organisationId: string, userId: string, next: string | null): Promise<ChangeOutcome> {
    const admins = this.organisationMembers.filter(
      (m) => m.organisationId === organisationId && isAdminRole(m.role),
    );
    const current = this.member(organisationId, userId);
    if (!current) return 'not_member';
    if (admins.some((a) => a.userId === userId) && leavesNoAdmin(admins, userId, next)) return 'last_admin';
    if (next !== null) {
      current.role = next;
      return 'done';
    }
    this.workspaceMembers = this.workspaceMembers.filter(
      (m) => !(m.userId === userId && this.workspaces.get(m.workspaceId)?.organisationId === organisationId),
    );
    this.organisationMembers = this.organisationMembers.filter((m) => m !== current);
    this.endedSessions.push({ userId, organisationId });
    const person = this.people.get(userId);
    if (person?.currentOrganisationId === organisationId) person.currentOrganisationId = null;
    return 'done';
  }

  async setWorkspaceRole(workspaceId: string, userId: string, role: string) {
    const found = this.workspaceMember(workspaceId, userId);
    if (found) found.role = role;
    else this.workspaceMembers.push({ workspaceId, userId, role });
  }

  async workspacePage(workspaceId: string, q: MemberPageQuery) {
    const organisationId = this.workspaces.get(workspaceId)?.organisationId;
    const mine = this.workspaceMembers.filter((m) => m.workspaceId === workspaceId);
    const rows = mine.flatMap((m) => {
      const p = this.people.get(m.userId);
      const member = organisationId ? this.member(organisationId, m.userId) : undefined;
      return p && member
        ? [
            {
              userId: p.id,
              firstName: p.firstName,
              lastName: p.lastName,
              email: p.email,
              organisationRole: member.role,
              role: m.role,
              joinedAt: member.createdAt,
            },
          ]
        : [];
    });
    const key = memberSortKey(q.sort);
    const page = pageRows(
      rows,
      window(q),
      (r) => r[key],
      (r) => r.userId,
    );
    // the SQL counts the workspace's member rows, joined or not
    return { total: mine.length, rows: page.rows.map(({ joinedAt: _joinedAt, ...r }) => r) };
  }

  async workspaceRoleOf(workspaceId: string, userId: string) {
    return this.workspaceMember(workspaceId, userId)?.role ?? null;
  }

  async addToWorkspace(workspaceId: string, userId: string, role: string) {
    if (this.workspaceMember(workspaceId, userId)) return false;
    this.workspaceMembers.push({ workspaceId, userId, role });
    return true;
  }

  async removeFromWorkspace(workspaceId: string, userId: string) {
    const before = this.workspaceMembers.length;
    this.workspaceMembers = this.workspaceMembers.filter(
      (m) => !(m.workspaceId === workspaceId && m.userId === userId),
    );
    return this.workspaceMembers.length < before;
  }

  private member(organisationId: string, userId: string) {
    return this.organisationMembers.find((m) => m.organisationId === organisationId && m.userId === userId);
  }

  private workspaceMember(workspaceId: string, userId: string) {
    return this.workspaceMembers.find((m) => m.workspaceId === workspaceId && m.userId === userId);
  }
}

/** The row field MEMBER_SORTS names (role: the organisation role in page, the workspace role in workspacePage). */
function memberSortKey(sort: MemberSort) {
  const keys = {
    id: 'userId',
    userId: 'userId',
    email: 'email',
    firstName: 'firstName',
    lastName: 'lastName',
    organisationRole: 'organisationRole',
    role: 'role',
    joinedAt: 'joinedAt',
  } as const;
  return keys[sort];
}

function window(q: MemberPageQuery) {
  return { _start: q.start, _end: q.end, _order: q.order };
}
