import type { workspaces } from '../../platform/database/schema.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;

/** What the organisations service needs of storage; OrganisationsStore (SQL) and FakeOrganisationsStore implement it. */
export interface OrganisationsStore {
  /** Changes the organisation's name and/or its cap on a run's duration (null: none). */
  update(id: string, change: { name?: string; maxRunMinutes?: number | null }): Promise<void>;
  /** The organisation's workspace. */
  workspace(organisationId: string, id: string): Promise<WorkspaceRow | null>;
  workspaceNameTaken(organisationId: string, name: string, exceptId?: string): Promise<boolean>;
  /**
   * The workspace with its default environments, all or nothing; a unique violation when the
   * organisation has a workspace of that name.
   */
  createWorkspace(row: { id: string; organisationId: string; name: string }): Promise<void>;
  renameWorkspace(id: string, name: string): Promise<void>;
  /** Deletes the workspace unless it is the organisation's last; false when it was the last. */
  deleteWorkspaceUnlessLast(organisationId: string, id: string): Promise<boolean>;
  /** The workspaces a service account was given, with its role in each, oldest first. */
  serviceAccountWorkspaces(
    serviceAccountId: string,
  ): Promise<Array<{ id: string; name: string; organisationId: string; role: string }>>;
}
