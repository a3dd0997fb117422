import { and, desc, eq, isNull } from 'drizzle-orm';
import type { RepositoryListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { firstRow, rowsWhere } from '../../platform/database/rows.js';
import { repositories, repositoryDeployTokens, workspaces } from '../../platform/database/schema.js';
import { nameAndDateSorts, SqlNamedStore } from '../../platform/database/sql-named-store.js';
import type { DeployTokenRow, RepositoriesStore } from './repositories-store-type.js';

const SORTABLE = {
  ...nameAndDateSorts(repositories),
  kind: repositories.kind,
  lastPushAt: repositories.lastPushAt,
};

/** SQL for repositories and their deploy tokens. */
export class SqlRepositoriesStore extends SqlNamedStore<typeof repositories> implements RepositoriesStore {
  constructor(db: AppDb) {
    super(db, repositories);
  }

  list(workspaceId: string, query: RepositoryListQuery) {
    const kind = query.repository_type_id;
    return this.listNamed(workspaceId, query, SORTABLE, [kind ? eq(repositories.kind, kind) : undefined]);
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

  async insertToken(row: DeployTokenRow): Promise<void> {
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
    return (await firstRow(this.db, workspaces, eq(workspaces.id, workspaceId)))?.organisationId ?? null;
  }
}
