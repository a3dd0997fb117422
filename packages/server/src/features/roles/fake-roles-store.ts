import { FakeNamedTable, sortRows } from '../../platform/database/fake-rows.js';
import type { RoleRow } from './roles-store.js';
import type { NewRole, RoleChange, RolesStore } from './roles-store-type.js';

/**
 * Custom roles in memory, with the SQL store's organisation scoping, (organisation, name)
 * uniqueness and case-insensitive nameTaken. Who holds a role (members, service accounts,
 * pending invites, kept in other tables) is told with hold/release.
 */
export class FakeRolesStore implements RolesStore {
  private readonly table = new FakeNamedTable<RoleRow>('roles', 'roles_org_name', (r) => r.organisationId);
  private readonly holders = new Map<string, number>();

  /** A member, service account or pending invite of the organisation now holds the role. */
  hold(roleId: string): void {
    this.holders.set(roleId, (this.holders.get(roleId) ?? 0) + 1);
  }

  release(roleId: string): void {
    this.holders.set(roleId, Math.max(0, (this.holders.get(roleId) ?? 0) - 1));
  }

  async list(organisationId: string) {
    return sortRows(this.table.all(organisationId), (r) => r.name);
  }

  async get(organisationId: string, id: string) {
    return this.table.get(organisationId, id);
  }

  async customRoleExists(organisationId: string, id: string) {
    return this.table.get(organisationId, id) !== null;
  }

  async nameTaken(organisationId: string, name: string, exceptId?: string) {
    return this.table
      .all(organisationId)
      .some((r) => r.name.toLowerCase() === name.toLowerCase() && r.id !== exceptId);
  }

  async create(row: NewRole) {
    const now = new Date();
    this.table.insert({ ...row, createdAt: now, updatedAt: now });
  }

  async update(id: string, patch: RoleChange) {
    this.table.update(id, patch);
  }

  async deleteUnlessAssigned(organisationId: string, id: string) {
    if (!this.table.get(organisationId, id)) return true;
    if ((this.holders.get(id) ?? 0) > 0) return false;
    this.table.delete(id);
    return true;
  }
}
