import { copyOf } from '../../platform/database/fake-rows.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import {
  directoryUserRow,
  type DirectoryUser,
  type SsoStore,
  type SsoUserRow,
  type StoredSsoSettings,
} from './sso-store.js';

/**
 * SSO settings, people and memberships in memory, as the SQL store keeps them: one settings row
 * per organisation (saved over), e-mails unique among people, a directory person created with
 * their organisation membership, and workspace roles set or replaced. Tests add the
 * organisation's workspaces, custom roles and existing people with addWorkspace, addRole, addMember.
 */
export class FakeSsoStore implements SsoStore {
  private readonly saved = new Map<string, StoredSsoSettings>();
  private readonly workspaces = new Map<string, string[]>();
  private readonly roles = new Map<string, string[]>();
  readonly people = new Map<string, SsoUserRow>();
  /** `${organisationId} ${userId}` → organisation role */
  private readonly organisationRoles = new Map<string, string>();
  /** `${workspaceId} ${userId}` → workspace role */
  readonly workspaceRoles = new Map<string, string>();

  addWorkspace(organisationId: string, id: string): void {
    this.workspaces.set(organisationId, [...(this.workspaces.get(organisationId) ?? []), id]);
  }

  addRole(organisationId: string, id: string): void {
    this.roles.set(organisationId, [...(this.roles.get(organisationId) ?? []), id]);
  }

  /** A person with an account; with an organisation, a member of it with that role. */
  addMember(person: Pick<SsoUserRow, 'id' | 'email'>, organisationId?: string, role?: string): void {
    this.people.set(person.id, {
      firstName: 'First',
      lastName: 'Last',
      passwordHash: 'hash',
      emailVerifiedAt: new Date(),
      currentOrganisationId: organisationId ?? null,
      createdAt: new Date(),
      ...person,
    });
    if (organisationId && role) this.organisationRoles.set(`${organisationId} ${person.id}`, role);
  }

  async settings(organisationId: string) {
    const s = this.saved.get(organisationId);
    return s ? copyOf(s) : null;
  }

  async saveSettings(s: Omit<StoredSsoSettings, 'updatedAt'>) {
    const stored = { ...copyOf(s), updatedAt: new Date() };
    this.saved.set(s.organisationId, stored);
    return copyOf(stored);
  }

  async workspaceIds(organisationId: string) {
    return [...(this.workspaces.get(organisationId) ?? [])];
  }

  async customRoleIds(organisationId: string) {
    return [...(this.roles.get(organisationId) ?? [])];
  }

  async userByEmail(email: string) {
    const found = [...this.people.values()].find((p) => p.email === email);
    return found ? copyOf(found) : null;
  }

  async organisationRole(userId: string, organisationId: string) {
    return this.organisationRoles.get(`${organisationId} ${userId}`) ?? null;
  }

  async createDirectoryUser(input: DirectoryUser) {
    if ([...this.people.values()].some((p) => p.email === input.email))
      throw uniqueViolation('users_email_unique');
    const row: SsoUserRow = { ...directoryUserRow(input), createdAt: new Date() };
    this.people.set(row.id, row);
    this.organisationRoles.set(`${input.organisationId} ${row.id}`, input.organisationRole);
    return copyOf(row);
  }

  async setOrganisationRole(userId: string, organisationId: string, role: string) {
    const key = `${organisationId} ${userId}`;
    if (this.organisationRoles.has(key)) this.organisationRoles.set(key, role);
  }

  async setWorkspaceRole(userId: string, workspaceId: string, role: string) {
    this.workspaceRoles.set(`${workspaceId} ${userId}`, role);
  }
}
