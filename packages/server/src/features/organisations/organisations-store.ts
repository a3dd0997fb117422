import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import {
  environments,
  organisations,
  serviceAccountWorkspaces,
  workspaces,
} from '../../platform/database/schema.js';
import { anyRow, firstRow } from '../../platform/database/rows.js';
import { defaultEnvironmentRows } from '../environments/default-environments.js';
import type { OrganisationsStore, WorkspaceRow } from './organisations-store-type.js';

export type { WorkspaceRow } from './organisations-store-type.js';

/** SQL for organisations and their workspaces. */
export class SqlOrganisationsStore implements OrganisationsStore {
  constructor(private readonly db: AppDb) {}

  /** Changes the organisation's name and/or its cap on a run's duration (null: none). */
  async update(id: string, change: { name?: string; maxRunMinutes?: number | null }) {
    await this.db.update(organisations).set(change).where(eq(organisations.id, id));
  }

  async workspace(organisationId: string, id: string): Promise<WorkspaceRow | null> {
    return firstRow(
      this.db,
      workspaces,
      and(eq(workspaces.id, id), eq(workspaces.organisationId, organisationId)),
    );
  }

  async workspaceNameTaken(organisationId: string, name: string, exceptId?: string): Promise<boolean> {
    const where = [eq(workspaces.organisationId, organisationId), eq(workspaces.name, name)];
    return anyRow(this.db, workspaces, where, exceptId);
  }

  async createWorkspace(row: { id: string; organisationId: string; name: string }) {
    await this.db.transaction(async (tx) => {
      await tx.insert(workspaces).values(row);
      await tx.insert(environments).values(defaultEnvironmentRows(row.id));
    });
  }

  async renameWorkspace(id: string, name: string) {
    await this.db.update(workspaces).set({ name }).where(eq(workspaces.id, id));
  }

  /** Deletes the workspace unless it is the organisation's last; false when it was the last. */
  async deleteWorkspaceUnlessLast(organisationId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Lock the organisation's workspaces so two deletes cannot both see "two left".
      const rows = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(eq(workspaces.organisationId, organisationId))
        .for('update');
      if (rows.length <= 1) return false;
      await tx
        .delete(workspaces)
        .where(and(eq(workspaces.id, id), eq(workspaces.organisationId, organisationId)));
      return true;
    });
  }

  /** The workspaces a service account was given, with its role in each. */
  async serviceAccountWorkspaces(serviceAccountId: string) {
    return this.db
      .select({
        id: workspaces.id,
        name: workspaces.name,
        organisationId: workspaces.organisationId,
        role: serviceAccountWorkspaces.role,
      })
      .from(serviceAccountWorkspaces)
      .innerJoin(workspaces, eq(workspaces.id, serviceAccountWorkspaces.workspaceId))
      .where(eq(serviceAccountWorkspaces.serviceAccountId, serviceAccountId))
      .orderBy(workspaces.createdAt, workspaces.name);
  }
}
