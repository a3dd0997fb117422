import type { serviceAccounts } from '../../platform/database/schema.js';

export type ServiceAccountRow = typeof serviceAccounts.$inferSelect;
export interface WorkspaceRole {
  workspaceId: string;
  role: string;
}

/** What the service accounts service needs of storage; ServiceAccountsStore (SQL) and FakeServiceAccountsStore implement it. */
export interface ServiceAccountsStore {
  /**
   * Creates the account with its workspace roles, all or nothing: a unique violation when the
   * organisation has an account of that name, the token hash is taken or a workspace is named twice.
   */
  create(row: typeof serviceAccounts.$inferInsert, grants: WorkspaceRole[]): Promise<void>;
  /** The organisation's accounts by name. */
  list(organisationId: string): Promise<ServiceAccountRow[]>;
  get(organisationId: string, id: string): Promise<ServiceAccountRow | null>;
  nameTaken(organisationId: string, name: string): Promise<boolean>;
  /** The accounts' workspace roles, by workspace name. */
  workspacesOf(ids: string[]): Promise<Array<WorkspaceRole & { serviceAccountId: string }>>;
  /** Which of the ids are workspaces of the organisation. */
  workspacesInOrganisation(organisationId: string, ids: string[]): Promise<Set<string>>;
  /** The account's workspace roles become these, all or nothing. */
  replaceWorkspaces(id: string, grants: WorkspaceRole[]): Promise<void>;
  revoke(id: string): Promise<void>;
}
