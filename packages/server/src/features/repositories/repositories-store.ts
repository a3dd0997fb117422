import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { RepositoryListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { deleteById, firstRow, rowsWhere, updateById } from '../../platform/database/rows.js';
import { repositories, repositoryDeployTokens, workspaces } from '../../platform/database/schema.js';
import { findByName, getInWorkspace, listPage, nameTaken } from '../../platform/database/workspace-rows.js';
import type {
  DeployTokenRow,
  RepositoriesStore,
  RepositoryPatch,
  RepositoryRow,
} from './repositories-store-type.js';

const SORTABLE = {
  id: repositories.id,
  name: repositories.name,
  kind: repositories.kind,
  lastPushAt: repositories.lastPushAt,
  createdAt: repositories.createdAt,
  updatedAt: repositories.updatedAt,
};

/** SQL for repositories and their deploy tokens. */
export class SqlRepositoriesStore implements RepositoriesStore {
  constructor(private readonly db: AppDb) {}

  list(workspaceId: string, query: RepositoryListQuery) {
    return listPage(this.db, repositories, {
      workspaceId,
      query,
      nameColumn: repositories.name,
      where: [query.repository_type_id ? eq(repositories.kind, query.repository_type_id) : undefined],
      sorts: SORTABLE,
      fallbackSort: repositories.name,
      tiebreak: asc(repositories.name),
    });
  }

  get(workspaceId: string, id: string): Promise<RepositoryRow | null> {
    return getInWorkspace(this.db, repositories, workspaceId, id);
  }

  byName(workspaceId: string, name: string): Promise<RepositoryRow | null> {
    return findByName(this.db, repositories, workspaceId, name);
  }

  nameTaken(workspaceId: string, name: string): Promise<boolean> {
    return nameTaken(this.db, repositories, workspaceId, name);
  }

  async insert(row: typeof repositories.$inferInsert): Promise<void> {
    await this.db.insert(repositories).values(row);
  }

  async update(id: string, patch: RepositoryPatch): Promise<void> {
    await updateById(this.db, repositories, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, repositories, id);
  }

  async pushed(id: string, at: Date): Promise<void> {
    await this.db.update(repositories).set({ lastPushAt: at }).where(eq(repositories.id, id));
  }

  tokens(repositoryId: string): Promise<DeployTokenRow[]> {
    return rowsWhere(
      this.db,
      repositoryDeployTokens,
      eq(repositoryDeployTokens.repositoryId, repositoryId),
      desc(repositoryDeployTokens.createdAt),
    );
  }

  async insertToken(row: typeof repositoryDeployTokens.$inferInsert): Promise<void> {
    await this.db.insert(repositoryDeployTokens).values(row);
  }

  async revokeToken(repositoryId: string, tokenId: string, at: Date): Promise<boolean> {
    const revoked = await this.db
      .update(repositoryDeployTokens)
      .set({ revokedAt: at })
      .where(
        and(
          eq(repositoryDeployTokens.id, tokenId),
          eq(repositoryDeployTokens.repositoryId, repositoryId),
          isNull(repositoryDeployTokens.revokedAt),
        ),
      )
      .returning({ id: repositoryDeployTokens.id });
    return revoked.length > 0;
  }

  tokenByHash(hash: string): Promise<DeployTokenRow | null> {
    return firstRow(this.db, repositoryDeployTokens, eq(repositoryDeployTokens.tokenHash, hash));
  }

  async tokenUsed(id: string, at: Date): Promise<void> {
    await this.db
      .update(repositoryDeployTokens)
      .set({ lastUsedAt: at })
      .where(eq(repositoryDeployTokens.id, id));
  }

  async organisationOf(workspaceId: string): Promise<string | null> {
    const row = await firstRow(this.db, workspaces, eq(workspaces.id, workspaceId));
    return row?.organisationId ?? null;
  }
}
