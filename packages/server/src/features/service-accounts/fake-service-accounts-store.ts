import { FakeNamedTable, sortRows, withDefaults } from '../../platform/database/fake-rows.js';
import type { serviceAccounts } from '../../platform/database/schema.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import type { ServiceAccountRow, WorkspaceRole } from './service-accounts-store.js';
import type { ServiceAccountsStore } from './service-accounts-store-type.js';

/**
 * Service accounts in memory, with the SQL store's organisation scoping, its unique indexes
 * (organisation and name, token hash, one role per workspace) and its all-or-nothing writes.
 * Tests add the organisation's workspaces with addWorkspace.
 */
export class FakeServiceAccountsStore implements ServiceAccountsStore {
  private readonly table = new FakeNamedTable<ServiceAccountRow>(
    'service_accounts',
    'service_accounts_org_name',
    (r) => r.organisationId,
  );
  private grants: Array<WorkspaceRole & { serviceAccountId: string }> = [];
  private readonly workspaces = new Map<string, { id: string; organisationId: string; name: string }>();

  addWorkspace(workspace: { id: string; organisationId: string; name: string }): void {
    this.workspaces.set(workspace.id, { ...workspace });
  }

  async create(row: typeof serviceAccounts.$inferInsert, grants: WorkspaceRole[]) {
    if (this.table.everywhere().some((r) => r.tokenHash === row.tokenHash))
      throw uniqueViolation('service_accounts_token_hash_unique');
    checkOneRolePerWorkspace(grants);
    this.table.insert(
      withDefaults<ServiceAccountRow>({ createdAt: new Date(), lastUsedAt: null, revokedAt: null }, row),
    );
    this.grants.push(
      ...grants.map((g) => ({ serviceAccountId: row.id, workspaceId: g.workspaceId, role: g.role })),
    );
  }

  async list(organisationId: string) {
    return sortRows(this.table.all(organisationId), (r) => r.name);
  }

  async get(organisationId: string, id: string) {
    return this.table.get(organisationId, id);
  }

  async nameTaken(organisationId: string, name: string) {
    return this.table.nameTaken(organisationId, name);
  }

  async workspacesOf(ids: string[]) {
    const rows = this.grants.filter(
      (g) => ids.includes(g.serviceAccountId) && this.workspaces.has(g.workspaceId),
    );
    return sortRows(rows, (g) => this.workspaces.get(g.workspaceId)!.name).map((g) => ({ ...g }));
  }

  async workspacesInOrganisation(organisationId: string, ids: string[]) {
    return new Set(ids.filter((id) => this.workspaces.get(id)?.organisationId === organisationId));
  }

  async replaceWorkspaces(id: string, grants: WorkspaceRole[]) {
    checkOneRolePerWorkspace(grants);
    this.grants = [
      ...this.grants.filter((g) => g.serviceAccountId !== id),
      ...grants.map((g) => ({ serviceAccountId: id, workspaceId: g.workspaceId, role: g.role })),
    ];
  }

  async revoke(id: string) {
    this.table.write(id, { revokedAt: new Date() });
  }
}

function checkOneRolePerWorkspace(grants: WorkspaceRole[]) {
  if (new Set(grants.map((g) => g.workspaceId)).size < grants.length)
    throw uniqueViolation('service_account_workspaces_pkey');
}
