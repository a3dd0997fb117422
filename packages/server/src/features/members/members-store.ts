import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import {
  organisationMembers,
  sessions,
  users,
  workspaceMembers,
  workspaces,
} from '../../platform/database/schema.js';
import { leavesNoAdmin } from './last-admin.js';
import { putWorkspaceRole } from './workspace-role.js';
import type { MembersStore, ChangeOutcome, MemberSort } from './members-store-type.js';

export type { ChangeOutcome, MemberSort } from './members-store-type.js';

export const MEMBER_SORTS = {
  id: users.id,
  userId: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  organisationRole: organisationMembers.role,
  role: organisationMembers.role,
  joinedAt: organisationMembers.createdAt,
} as const satisfies Record<MemberSort, unknown>;

/** The columns a member list shows of each person. */
const PERSON_COLUMNS = {
  userId: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  organisationRole: organisationMembers.role,
};

/** SQL for the members of an organisation and their workspace roles. */
export class SqlMembersStore implements MembersStore {
  constructor(private readonly db: AppDb) {}

  async page(
    organisationId: string,
    q: { start: number; end: number; sort: MemberSort; order: 'ASC' | 'DESC' },
  ) {
    const where = eq(organisationMembers.organisationId, organisationId);
    const [total] = await this.db.select({ n: count() }).from(organisationMembers).where(where);
    const column = MEMBER_SORTS[q.sort];
    const rows = await this.db
      .select({ ...PERSON_COLUMNS, joinedAt: organisationMembers.createdAt })
      .from(organisationMembers)
      .innerJoin(users, eq(users.id, organisationMembers.userId))
      .where(where)
      .orderBy(q.order === 'ASC' ? asc(column) : desc(column), asc(users.id))
      .limit(q.end - q.start)
      .offset(q.start);
    return { total: Number(total?.n ?? 0), rows };
  }

  async workspaceRoles(organisationId: string, userIds: string[]) {
    if (userIds.length === 0) return [];
    return this.db
      .select({
        userId: workspaceMembers.userId,
        workspaceId: workspaces.id,
        workspaceName: workspaces.name,
        role: workspaceMembers.role,
      })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .where(and(eq(workspaces.organisationId, organisationId), inArray(workspaceMembers.userId, userIds)))
      .orderBy(asc(workspaces.name));
  }

  async roleOf(organisationId: string, userId: string): Promise<string | null> {
    const [r] = await this.db
      .select({ role: organisationMembers.role })
      .from(organisationMembers)
      .where(
        and(eq(organisationMembers.organisationId, organisationId), eq(organisationMembers.userId, userId)),
      )
      .limit(1);
    return r?.role ?? null;
  }

  async workspaceInOrganisation(organisationId: string, workspaceId: string): Promise<boolean> {
    const [w] = await this.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.id, workspaceId), eq(workspaces.organisationId, organisationId)))
      .limit(1);
    return Boolean(w);
  }

  /** Changes the organisation role (or, with null, removes the member) unless no admin would remain. */
  async changeRole(organisationId: string, userId: string, next: string | null): Promise<ChangeOutcome> {
    return this.db.transaction(async (tx) => {
      // Locking the admins serialises concurrent demotions: two cannot both see "another admin left".
      const admins = await tx
        .select({ userId: organisationMembers.userId })
        .from(organisationMembers)
        .where(
          and(
            eq(organisationMembers.organisationId, organisationId),
            inArray(organisationMembers.role, ['master_admin', 'account_admin']),
          ),
        )
        .for('update');
      const member = and(
        eq(organisationMembers.organisationId, organisationId),
        eq(organisationMembers.userId, userId),
      );
      const [current] = await tx
        .select({ role: organisationMembers.role })
        .from(organisationMembers)
        .where(member);
      if (!current) return 'not_member';
      const wasAdmin = admins.some((a) => a.userId === userId);
      if (wasAdmin && leavesNoAdmin(admins, userId, next)) return 'last_admin';
      if (next !== null) {
        await tx.update(organisationMembers).set({ role: next }).where(member);
        return 'done';
      }
      const orgWorkspaces = sql`(SELECT ${workspaces.id} FROM ${workspaces} WHERE ${workspaces.organisationId} = ${organisationId})`;
      await tx
        .delete(workspaceMembers)
        .where(
          and(eq(workspaceMembers.userId, userId), sql`${workspaceMembers.workspaceId} IN ${orgWorkspaces}`),
        );
      await tx.delete(organisationMembers).where(member);
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(sessions.userId, userId),
            eq(sessions.organisationId, organisationId),
            isNull(sessions.revokedAt),
          ),
        );
      await tx
        .update(users)
        .set({ currentOrganisationId: null })
        .where(and(eq(users.id, userId), eq(users.currentOrganisationId, organisationId)));
      return 'done';
    });
  }

  async setWorkspaceRole(workspaceId: string, userId: string, role: string) {
    await putWorkspaceRole(this.db, workspaceId, userId, role);
  }

  /** The members of one workspace with their role there, a page at a time. */
  async workspacePage(
    workspaceId: string,
    q: { start: number; end: number; sort: MemberSort; order: 'ASC' | 'DESC' },
  ) {
    const where = eq(workspaceMembers.workspaceId, workspaceId);
    const [total] = await this.db.select({ n: count() }).from(workspaceMembers).where(where);
    const column = q.sort === 'role' ? workspaceMembers.role : MEMBER_SORTS[q.sort];
    const rows = await this.db
      .select({ ...PERSON_COLUMNS, role: workspaceMembers.role })
      .from(workspaceMembers)
      .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .innerJoin(
        organisationMembers,
        and(
          eq(organisationMembers.organisationId, workspaces.organisationId),
          eq(organisationMembers.userId, workspaceMembers.userId),
        ),
      )
      .where(where)
      .orderBy(q.order === 'ASC' ? asc(column) : desc(column), asc(users.id))
      .limit(q.end - q.start)
      .offset(q.start);
    return { total: Number(total?.n ?? 0), rows };
  }

  /** The person's role in the workspace, or null when they are not in it. */
  async workspaceRoleOf(workspaceId: string, userId: string): Promise<string | null> {
    const [r] = await this.db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
      .limit(1);
    return r?.role ?? null;
  }

  /** Adds the person to the workspace; false when they are in it already. */
  async addToWorkspace(workspaceId: string, userId: string, role: string): Promise<boolean> {
    const r = await this.db
      .insert(workspaceMembers)
      .values({ workspaceId, userId, role })
      .onConflictDoNothing()
      .returning({ userId: workspaceMembers.userId });
    return r.length > 0;
  }

  async removeFromWorkspace(workspaceId: string, userId: string): Promise<boolean> {
    const r = await this.db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
      .returning({ userId: workspaceMembers.userId });
    return r.length > 0;
  }
}
