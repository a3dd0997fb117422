import type { RepositoryListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import type { DeployTokenRow, RepositoriesStore, RepositoryRow } from './repositories-store-type.js';

/** Repositories and deploy tokens in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness. */
export class FakeRepositoriesStore extends FakeNamedStore<RepositoryRow> implements RepositoriesStore {
  private readonly tokenRows: DeployTokenRow[] = [];

  constructor(private readonly organisations: Record<string, string> = {}) {
    super('repositories', 'repositories_ws_name', (now) => ({
      description: '',
      url: null,
      defaultBranch: 'main',
      createdBy: null,
      lastPushAt: null,
      createdAt: now,
      updatedAt: now,
    }));
  }

  async list(workspaceId: string, query: RepositoryListQuery) {
    const kind = query.repository_type_id;
    return this.table.page(
      workspaceId,
      query,
      ['id', 'name', 'kind', 'lastPushAt', 'createdAt', 'updatedAt'],
      'name',
      kind ? (r) => r.kind === kind : undefined,
    );
  }

  override async delete(id: string): Promise<void> {
    await super.delete(id);
    // the tokens go with their repository, as the foreign key's cascade does
    for (let i = this.tokenRows.length - 1; i >= 0; i--)
      if (this.tokenRows[i]!.repositoryId === id) this.tokenRows.splice(i, 1);
  }

  async pushed(id: string, at: Date): Promise<void> {
    await this.update(id, { lastPushAt: at });
  }

  async tokens(repositoryId: string) {
    return this.tokenRows
      .filter((t) => t.repositoryId === repositoryId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .map((t) => ({ ...t }));
  }

  async insertToken(row: DeployTokenRow) {
    this.tokenRows.push({ ...row });
  }

  async revokeToken(repositoryId: string, tokenId: string, at: Date) {
    const token = this.tokenRows.find(
      (t) => t.id === tokenId && t.repositoryId === repositoryId && !t.revokedAt,
    );
    if (!token) return false;
    token.revokedAt = at;
    return true;
  }

  async tokenByHash(hash: string) {
    const token = this.tokenRows.find((t) => t.tokenHash === hash);
    return token ? { ...token } : null;
  }

  async tokenUsed(id: string, at: Date) {
    const token = this.tokenRows.find((t) => t.id === id);
    if (token) token.lastUsedAt = at;
  }

  async organisationOf(workspaceId: string) {
    return this.organisations[workspaceId] ?? null;
  }
}
