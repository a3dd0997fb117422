import { copyOf, sortRows, withDefaults } from '../../platform/database/fake-rows.js';
import type { invites } from '../../platform/database/schema.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import type { FakeMembersStore } from './fake-members-store.js';
import type { InviteRow, NewPerson } from './invites-store.js';
import type { InvitesStore } from './invites-store-type.js';

/**
 * Invites in memory, as the SQL store keeps them: pending means neither accepted, revoked nor
 * expired; a new invite revokes the pending ones for its address; accept is single use. People
 * and memberships live in the FakeMembersStore it is given, as they share one database in SQL.
 */
export class FakeInvitesStore implements InvitesStore {
  private readonly rows = new Map<string, InviteRow>();
  private readonly organisations = new Map<string, string>();

  constructor(private readonly members: FakeMembersStore) {}

  addOrganisation(id: string, name: string): void {
    this.organisations.set(id, name);
  }

  async organisationName(id: string) {
    return this.organisations.get(id) ?? null;
  }

  async isMember(organisationId: string, email: string) {
    const person = [...this.members.people.values()].find((p) => p.email === email);
    return person ? (await this.members.roleOf(organisationId, person.id)) !== null : false;
  }

  async create(row: typeof invites.$inferInsert) {
    if (this.rows.has(row.id)) throw uniqueViolation('invites_pkey');
    if ([...this.rows.values()].some((r) => r.tokenHash === row.tokenHash))
      throw uniqueViolation('invites_token_hash_unique');
    for (const r of this.rows.values())
      if (r.organisationId === row.organisationId && r.email === row.email && pending(r))
        r.revokedAt = new Date();
    this.rows.set(
      row.id,
      withDefaults<InviteRow>(
        {
          workspaceId: null,
          organisationRole: 'member',
          workspaceRole: null,
          createdAt: new Date(),
          acceptedAt: null,
          revokedAt: null,
        },
        copyOf(row),
      ),
    );
  }

  async listPending(organisationId: string) {
    const mine = [...this.rows.values()].filter((r) => r.organisationId === organisationId && pending(r));
    return sortRows(mine, (r) => r.createdAt, 'DESC').map(copyOf);
  }

  async revoke(organisationId: string, id: string) {
    const row = this.rows.get(id);
    if (!row || row.organisationId !== organisationId || !pending(row)) return false;
    row.revokedAt = new Date();
    return true;
  }

  async findPending(tokenHash: string) {
    const row = [...this.rows.values()].find((r) => r.tokenHash === tokenHash && pending(r));
    return row ? copyOf(row) : null;
  }

  async accept(tokenHash: string, person: { userId: string } | { create: NewPerson }) {
    const invite = [...this.rows.values()].find((r) => r.tokenHash === tokenHash && pending(r));
    if (!invite) return null;
    let userId: string;
    if ('create' in person) {
      const p = person.create;
      if ([...this.members.people.values()].some((x) => x.email === p.email))
        throw uniqueViolation('users_email_unique');
      this.members.addPerson({ ...p, currentOrganisationId: invite.organisationId });
      userId = p.id;
    } else {
      userId = person.userId;
      const existing = this.members.people.get(userId);
      if (existing) existing.currentOrganisationId = invite.organisationId;
    }
    invite.acceptedAt = new Date();
    if ((await this.members.roleOf(invite.organisationId, userId)) === null)
      this.members.addMember(
        invite.organisationId,
        this.members.people.get(userId)!,
        invite.organisationRole,
      );
    if (invite.workspaceId && invite.workspaceRole)
      await this.members.setWorkspaceRole(invite.workspaceId, userId, invite.workspaceRole);
    return copyOf(invite);
  }
}

function pending(r: InviteRow): boolean {
  return r.acceptedAt === null && r.revokedAt === null && r.expiresAt.getTime() > Date.now();
}
