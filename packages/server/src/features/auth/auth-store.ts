import { and, asc, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { defaultEnvironmentRows } from '../environments/default-environments.js';
import { putWorkspaceRole } from '../members/workspace-role.js';
import {
  environments,
  organisationMembers,
  organisations,
  passwordResets,
  sessions,
  users,
  verificationCodes,
  workspaces,
} from '../../platform/database/schema.js';

export type UserRow = typeof users.$inferSelect;
export type CodeRow = typeof verificationCodes.$inferSelect;

export interface NewSession {
  id: string;
  userId: string;
  organisationId: string;
  fingerprint: string | null;
  ip: string | null;
  userAgent: string | null;
  expiresAt: Date;
}

/** SQL for sign-up, sign-in and the profile. */
export class AuthStore {
  constructor(private readonly db: AppDb) {}

  async userByEmail(email: string): Promise<UserRow | null> {
    const [u] = await this.db.select().from(users).where(eq(users.email, email)).limit(1);
    return u ?? null;
  }

  async userById(id: string): Promise<UserRow | null> {
    const [u] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return u ?? null;
  }

  /** A new person with their own organisation, whose master admin they are, and its default workspace. */
  async createUserWithOrganisation(input: {
    userId: string;
    email: string;
    firstName: string;
    lastName: string;
    passwordHash: string | null;
    emailVerified: boolean;
    organisationId: string;
    organisationName: string;
    workspaceId: string;
  }) {
    await this.db.transaction(async (tx) => {
      await tx.insert(organisations).values({ id: input.organisationId, name: input.organisationName });
      await tx.insert(users).values({
        id: input.userId,
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash: input.passwordHash,
        emailVerifiedAt: input.emailVerified ? new Date() : null,
        currentOrganisationId: input.organisationId,
      });
      await tx
        .insert(organisationMembers)
        .values({ organisationId: input.organisationId, userId: input.userId, role: 'master_admin' });
      await tx
        .insert(workspaces)
        .values({ id: input.workspaceId, organisationId: input.organisationId, name: 'Default' });
      await tx.insert(environments).values(defaultEnvironmentRows(input.workspaceId));
    });
  }

  async updateUnverifiedUser(
    id: string,
    patch: { firstName: string; lastName: string; passwordHash: string },
  ) {
    await this.db
      .update(users)
      .set(patch)
      .where(and(eq(users.id, id), isNull(users.emailVerifiedAt)));
  }

  async markVerified(id: string) {
    await this.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, id));
  }

  async setPassword(id: string, passwordHash: string) {
    await this.db.update(users).set({ passwordHash }).where(eq(users.id, id));
  }

  async setName(id: string, firstName: string, lastName: string) {
    await this.db.update(users).set({ firstName, lastName }).where(eq(users.id, id));
  }

  // ── verification codes ─────────────────────────────────────────────────────────────────
  async latestCode(userId: string, purpose: string): Promise<CodeRow | null> {
    const [c] = await this.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.userId, userId), eq(verificationCodes.purpose, purpose)))
      .orderBy(desc(verificationCodes.createdAt))
      .limit(1);
    return c ?? null;
  }

  async replaceCode(row: typeof verificationCodes.$inferInsert) {
    await this.db.transaction(async (tx) => {
      await tx
        .update(verificationCodes)
        .set({ consumedAt: new Date() })
        .where(
          and(
            eq(verificationCodes.userId, row.userId),
            eq(verificationCodes.purpose, row.purpose),
            isNull(verificationCodes.consumedAt),
          ),
        );
      await tx.insert(verificationCodes).values(row);
    });
  }

  async countWrongCode(id: string) {
    await this.db
      .update(verificationCodes)
      .set({ attempts: sql`${verificationCodes.attempts} + 1` })
      .where(eq(verificationCodes.id, id));
  }

  /** Consumes the code once; false when another request consumed it first. */
  async consumeCode(id: string): Promise<boolean> {
    const r = await this.db
      .update(verificationCodes)
      .set({ consumedAt: new Date() })
      .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
      .returning({ id: verificationCodes.id });
    return r.length === 1;
  }

  // ── sessions ────────────────────────────────────────────────────────────────────────────
  async createSession(s: NewSession) {
    await this.db.insert(sessions).values(s);
  }

  async revokeSession(id: string) {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  }

  async revokeSessionsOf(userId: string, except?: string) {
    await this.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          except ? sql`${sessions.id} <> ${except}` : undefined,
        ),
      );
  }

  // ── password resets ─────────────────────────────────────────────────────────────────────
  async createReset(tokenHash: string, userId: string, expiresAt: Date) {
    await this.db.insert(passwordResets).values({ tokenHash, userId, expiresAt });
  }

  /** Uses a reset token once; returns its user, or null when unknown, used or expired. */
  async useReset(tokenHash: string): Promise<string | null> {
    const r = await this.db
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResets.tokenHash, tokenHash),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResets.userId });
    return r[0]?.userId ?? null;
  }

  // ── organisations and workspaces a person can see ───────────────────────────────────────
  async organisationsOf(userId: string) {
    return this.db
      .select({
        id: organisations.id,
        name: organisations.name,
        role: organisationMembers.role,
        maxRunMinutes: organisations.maxRunMinutes,
      })
      .from(organisationMembers)
      .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
      .where(eq(organisationMembers.userId, userId))
      .orderBy(asc(organisations.name));
  }

  /** Workspaces of the organisation the person may see: all of them for admins, else their own. */
  async visibleWorkspaces(userId: string, organisationId: string) {
    const res = await this.db.execute(sql`
      SELECT w.id, w.name, w.organisation_id,
             CASE WHEN om.role IN ('master_admin', 'account_admin') THEN 'admin' ELSE wm.role END AS role
      FROM workspaces w
      JOIN organisation_members om ON om.organisation_id = w.organisation_id AND om.user_id = ${userId}
      LEFT JOIN workspace_members wm ON wm.workspace_id = w.id AND wm.user_id = ${userId}
      WHERE w.organisation_id = ${organisationId}
        AND (om.role IN ('master_admin', 'account_admin') OR wm.user_id IS NOT NULL)
      ORDER BY w.created_at, w.name`);
    const rows = ((res as { rows?: unknown[] }).rows ?? res) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      organisationId: String(r.organisation_id),
      role: String(r.role),
    }));
  }

  async setCurrentOrganisation(userId: string, organisationId: string) {
    await this.db.update(users).set({ currentOrganisationId: organisationId }).where(eq(users.id, userId));
  }

  /** Adds a workspace membership (used by invites). */
  async addWorkspaceMember(workspaceId: string, userId: string, role: string) {
    await putWorkspaceRole(this.db, workspaceId, userId, role);
  }
}
