import type { RepositoryListQuery } from '@slipway/contracts';
import type { NamedStore } from '../../platform/named-rows.js';
import type { repositories, repositoryDeployTokens } from '../../platform/database/schema.js';

export type RepositoryRow = typeof repositories.$inferSelect;
export type NewRepository = typeof repositories.$inferInsert;
export type DeployTokenRow = typeof repositoryDeployTokens.$inferSelect;
export type RepositoryPatch = Partial<Pick<RepositoryRow, 'description' | 'defaultBranch'>>;

/** What the repositories service and the git routes need of storage; SqlRepositoriesStore and FakeRepositoriesStore implement it. */
export interface RepositoriesStore extends NamedStore<RepositoryRow, NewRepository, RepositoryPatch> {
  /** A page of a workspace's repositories, filtered by name (anywhere, any case) and kind, with the total. */
  list(workspaceId: string, query: RepositoryListQuery): Promise<{ rows: RepositoryRow[]; total: number }>;
  findByName(workspaceId: string, name: string): Promise<RepositoryRow | null>;
  pushed(id: string, at: Date): Promise<void>;
  /** The repository's deploy tokens, newest first, revoked ones included. */
  tokens(repositoryId: string): Promise<DeployTokenRow[]>;
  insertToken(row: DeployTokenRow): Promise<void>;
  /** Revokes one of the repository's tokens; false when it has no such token not yet revoked. */
  revokeToken(repositoryId: string, tokenId: string, at: Date): Promise<boolean>;
  tokenByHash(hash: string): Promise<DeployTokenRow | null>;
  tokenUsed(id: string, at: Date): Promise<void>;
  /** The organisation a workspace belongs to (for the audit record of a deploy token's push). */
  organisationOf(workspaceId: string): Promise<string | null>;
}
