import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { serviceAccounts, serviceAccountWorkspaces, workspaces } from '../../platform/database/schema.js';
import { anyRow, firstRow, rowsWhere } from '../../platform/database/rows.js';
import type {
  ServiceAccountsStore,
  ServiceAccountRow,
  WorkspaceRole,
} from './service-accounts-store-type.js';

export type { ServiceAccountRow, WorkspaceRole } from './service-accounts-store-type.js';

/** SQL for service accounts and their role per workspace. Tokens are kept only as hashes. */
export class SqlServiceAccountsStore implements ServiceAccountsStore {
  constructor(private readonly db: AppDb) {}

  async create(row: typeof serviceAccounts.$inferInsert, grants: WorkspaceRole[]) {
    await this.db.transaction(async (tx) => {
      await tx.insert(serviceAccounts).values(row);
      if (grants.length > 0) {
        await tx
          .insert(serviceAccountWorkspaces)
          .values(grants.map((g) => ({ serviceAccountId: row.id, ...g })));
      }
    });
  }

  async list(organisationId: string): Promise<ServiceAccountRow[]> {
    return rowsWhere(
      this.db,
      serviceAccounts,
      eq(serviceAccounts.organisationId, organisationId),
      asc(serviceAccounts.name),
    );
  }

  async get(organisationId: string, id: string): Promise<ServiceAccountRow | null> {
    return firstRow(
      this.db,
      serviceAccounts,
      and(eq(serviceAccounts.id, id), eq(serviceAccounts.organisationId, organisationId)),
    );
  }

  async nameTaken(organisationId: string, name: string): Promise<boolean> {
    return anyRow(this.db, serviceAccounts, [
      eq(serviceAccounts.organisationId, organisationId),
      eq(serviceAccounts.name, name),
    ]);
  }

  async workspacesOf(ids: string[]): Promise<Array<WorkspaceRole & { serviceAccountId: string }>> {
    if (ids.length === 0) return [];
    return this.db
      .select({
        serviceAccountId: serviceAccountWorkspaces.serviceAccountId,
        workspaceId: serviceAccountWorkspaces.workspaceId,
        role: serviceAccountWorkspaces.role,
      })
      .from(serviceAccountWorkspaces)
      .innerJoin(workspaces, eq(workspaces.id, serviceAccountWorkspaces.workspaceId))
      .where(inArray(serviceAccountWorkspaces.serviceAccountId, ids))
      .orderBy(asc(workspaces.name));
  }

  async workspacesInOrganisation(organisationId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.organisationId, organisationId), inArray(workspaces.id, ids)));
    return new Set(rows.map((r) => r.id));
  }

  async replaceWorkspaces(id: string, grants: WorkspaceRole[]) {
    await this.db.transaction(async (tx) => {
      await tx.delete(serviceAccountWorkspaces).where(eq(serviceAccountWorkspaces.serviceAccountId, id));
      if (grants.length > 0) {
        await tx.insert(serviceAccountWorkspaces).values(grants.map((g) => ({ serviceAccountId: id, ...g })));
      }
    });
  }

  async revoke(id: string) {
    await this.db.update(serviceAccounts).set({ revokedAt: new Date() }).where(eq(serviceAccounts.id, id));
  }
}
