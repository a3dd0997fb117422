import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { invites, organisationMembers, organisations, users } from '../../platform/database/schema.js';
import { putWorkspaceRole } from './workspace-role.js';
import type { InvitesStore, InviteRow, NewPerson } from './invites-store-type.js';

export type { InviteRow, NewPerson } from './invites-store-type.js';

const pending = () =>
  and(isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, new Date()));

/** SQL for invites: single use, expiring, the token kept only as a hash. */
export class SqlInvitesStore implements InvitesStore {
  constructor(private readonly db: AppDb) {}

  async organisationName(id: string): Promise<string | null> {
    const [o] = await this.db
      .select({ name: organisations.name })
      .from(organisations)
      .where(eq(organisations.id, id));
    return o?.name ?? null;
  }

  async isMember(organisationId: string, email: string): Promise<boolean> {
    const [m] = await this.db
      .select({ userId: organisationMembers.userId })
      .from(organisationMembers)
      .innerJoin(users, eq(users.id, organisationMembers.userId))
      .where(and(eq(organisationMembers.organisationId, organisationId), eq(users.email, email)))
      .limit(1);
    return Boolean(m);
  }

  /** A new invite replaces the pending ones for the same address. */
  async create(row: typeof invites.$inferInsert) {
    await this.db.transaction(async (tx) => {
      await tx
        .update(invites)
        .set({ revokedAt: new Date() })
        .where(and(eq(invites.organisationId, row.organisationId), eq(invites.email, row.email), pending()));
      await tx.insert(invites).values(row);
    });
  }

  async listPending(organisationId: string): Promise<InviteRow[]> {
    return this.db
      .select()
      .from(invites)
      .where(and(eq(invites.organisationId, organisationId), pending()))
      .orderBy(desc(invites.createdAt));
  }

  async revoke(organisationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .update(invites)
      .set({ revokedAt: new Date() })
      .where(and(eq(invites.id, id), eq(invites.organisationId, organisationId), pending()))
      .returning({ id: invites.id });
    return r.length > 0;
  }

  async findPending(tokenHash: string): Promise<InviteRow | null> {
    const [i] = await this.db
      .select()
      .from(invites)
      .where(and(eq(invites.tokenHash, tokenHash), pending()))
      .limit(1);
    return i ?? null;
  }

  /**
   * Uses the invite once: marks it accepted, creates the person when new, and adds the
   * organisation and workspace memberships. Null when another request used it first.
   */
  async accept(
    tokenHash: string,
    person: { userId: string } | { create: NewPerson },
  ): Promise<InviteRow | null> {
    return this.db.transaction(async (tx) => {
      const [invite] = await tx
        .update(invites)
        .set({ acceptedAt: new Date() })
        .where(and(eq(invites.tokenHash, tokenHash), pending()))
        .returning();
      if (!invite) return null;
      let userId: string;
      if ('create' in person) {
        const p = person.create;
        userId = p.id;
        await tx
          .insert(users)
          .values({ ...p, emailVerifiedAt: new Date(), currentOrganisationId: invite.organisationId });
      } else {
        userId = person.userId;
        // The invite mail reached the address, which proves it is theirs.
        await tx
          .update(users)
          .set({ currentOrganisationId: invite.organisationId })
          .where(eq(users.id, userId));
        await tx
          .update(users)
          .set({ emailVerifiedAt: new Date() })
          .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
      }
      await tx
        .insert(organisationMembers)
        .values({ organisationId: invite.organisationId, userId, role: invite.organisationRole })
        .onConflictDoNothing();
      if (invite.workspaceId && invite.workspaceRole) {
        await putWorkspaceRole(tx, invite.workspaceId, userId, invite.workspaceRole);
      }
      return invite;
    });
  }
}
