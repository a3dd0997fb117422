import { FakeNamedTable, compareValues } from '../../platform/database/fake-rows.js';
import { defaultEnvironmentRows } from '../environments/default-environments.js';
import type { WorkspaceRow } from './organisations-store.js';
import type { OrganisationsStore } from './organisations-store-type.js';

/**
 * Organisations and their workspaces in memory, as the SQL store keeps them: organisation
 * scoping, (organisation, name) uniqueness, a new workspace's default environments, and never
 * deleting an organisation's last workspace. Service account grants are added with grant.
 */
export class FakeOrganisationsStore implements OrganisationsStore {
  readonly organisations = new Map<string, { id: string; name: string; maxRunMinutes: number | null }>();
  private readonly workspaces = new FakeNamedTable<WorkspaceRow>(
    'workspaces',
    'workspaces_org_name',
    (w) => w.organisationId,
  );
  /** workspace id → names of the environments created with it */
  readonly environments = new Map<string, string[]>();
  private grants: Array<{ serviceAccountId: string; workspaceId: string; role: string }> = [];

  addOrganisation(id: string, name: string): void {
    this.organisations.set(id, { id, name, maxRunMinutes: null });
  }

  grant(serviceAccountId: string, workspaceId: string, role: string): void {
    this.grants.push({ serviceAccountId, workspaceId, role });
  }

  async update(id: string, change: { name?: string; maxRunMinutes?: number | null }) {
    const org = this.organisations.get(id);
    if (org) this.organisations.set(id, { ...org, ...change });
  }

  async workspace(organisationId: string, id: string) {
    return this.workspaces.get(organisationId, id);
  }

  async workspaceNameTaken(organisationId: string, name: string, exceptId?: string) {
    return this.workspaces.nameTaken(organisationId, name, exceptId);
  }

  async createWorkspace(row: { id: string; organisationId: string; name: string }) {
    this.workspaces.insert({ ...row, maxRunsInProgress: null, createdAt: new Date() });
    this.environments.set(
      row.id,
      defaultEnvironmentRows(row.id).map((e) => e.name),
    );
  }

  async renameWorkspace(id: string, name: string) {
    this.workspaces.update(id, { name });
  }

  async deleteWorkspaceUnlessLast(organisationId: string, id: string) {
    if (this.workspaces.all(organisationId).length <= 1) return false;
    if (this.workspaces.get(organisationId, id)) {
      this.workspaces.delete(id);
      this.environments.delete(id);
      this.grants = this.grants.filter((g) => g.workspaceId !== id);
    }
    return true;
  }

  async serviceAccountWorkspaces(serviceAccountId: string) {
    const all = this.workspaces.everywhere();
    return this.grants
      .filter((g) => g.serviceAccountId === serviceAccountId)
      .flatMap((g) => {
        const w = all.find((x) => x.id === g.workspaceId);
        return w ? [{ w, role: g.role }] : [];
      })
      .sort((a, b) => compareValues(a.w.createdAt, b.w.createdAt) || compareValues(a.w.name, b.w.name))
      .map(({ w, role }) => ({ id: w.id, name: w.name, organisationId: w.organisationId, role }));
  }
}
