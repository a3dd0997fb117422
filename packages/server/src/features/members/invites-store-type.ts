import type { invites } from '../../platform/database/schema.js';

export type InviteRow = typeof invites.$inferSelect;
export interface NewPerson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
}

/** What the invites service needs of storage; InvitesStore (SQL) and FakeInvitesStore implement it. */
export interface InvitesStore {
  organisationName(id: string): Promise<string | null>;
  /** Is a person with this e-mail a member of the organisation? */
  isMember(organisationId: string, email: string): Promise<boolean>;
  /** A new invite replaces (revokes) the pending ones for the same address. */
  create(row: typeof invites.$inferInsert): Promise<void>;
  /** The organisation's invites neither accepted, revoked nor expired, newest first. */
  listPending(organisationId: string): Promise<InviteRow[]>;
  /** false when the organisation has no such pending invite. */
  revoke(organisationId: string, id: string): Promise<boolean>;
  findPending(tokenHash: string): Promise<InviteRow | null>;
  /**
   * Uses the invite once: marks it accepted, creates the person when new (a unique violation
   * when the e-mail is taken), and adds the memberships. Null when it was used first.
   */
  accept(tokenHash: string, person: { userId: string } | { create: NewPerson }): Promise<InviteRow | null>;
}
