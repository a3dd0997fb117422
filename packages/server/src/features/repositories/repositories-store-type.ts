import type { RepositoryListQuery } from '@slipway/contracts';
import type { repositories, repositoryDeployTokens } from '../../platform/database/schema.js';

export type RepositoryRow = typeof repositories.$inferSelect;
export type DeployTokenRow = typeof repositoryDeployTokens.$inferSelect;
export type RepositoryPatch = Partial<Pick<RepositoryRow, 'description' | 'defaultBranch'>>;

/** What the repositories service and the git routes need of storage; SqlRepositoriesStore implements it. */
export interface RepositoriesStore {
  /** A page of a workspace's repositories, filtered by name (anywhere, any case) and kind, with the total. */
  list(workspaceId: string, query: RepositoryListQuery): Promise<{ rows: RepositoryRow[]; total: number }>;
  get(workspaceId: string, id: string): Promise<RepositoryRow | null>;
  byName(workspaceId: string, name: string): Promise<RepositoryRow | null>;
  nameTaken(workspaceId: string, name: string): Promise<boolean>;
  /** Throws a unique violation when the workspace already has a repository of that name. */
  insert(row: typeof repositories.$inferInsert): Promise<void>;
  update(id: string, patch: RepositoryPatch): Promise<void>;
  /** Deletes the repository and its deploy tokens. */
  delete(id: string): Promise<void>;
  pushed(id: string, at: Date): Promise<void>;
  /** The repository's deploy tokens, newest first, revoked ones included. */
  tokens(repositoryId: string): Promise<DeployTokenRow[]>;
  insertToken(row: typeof repositoryDeployTokens.$inferInsert): Promise<void>;
  /** Revokes one of the repository's tokens; false when it has no such token. */
  revokeToken(repositoryId: string, tokenId: string, at: Date): Promise<boolean>;
  tokenByHash(hash: string): Promise<DeployTokenRow | null>;
  tokenUsed(id: string, at: Date): Promise<void>;
  /** The organisation a workspace belongs to (for the audit record of a deploy token's push). */
  organisationOf(workspaceId: string): Promise<string | null>;
}
