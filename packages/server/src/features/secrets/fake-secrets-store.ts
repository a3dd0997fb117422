import type { PipelineListQuery } from '@slipway/contracts';
import { FakeNamedTable, withDefaults } from '../../platform/database/fake-rows.js';
import type { secrets } from '../../platform/database/schema.js';
import type { SecretRow } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

/** Secrets in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness. */
export class FakeSecretsStore implements SecretsStore {
  private readonly table = new FakeNamedTable<SecretRow>('secrets', 'secrets_ws_name');

  async list(workspaceId: string, query: PipelineListQuery) {
    return this.table.page(workspaceId, query, ['id', 'name', 'createdAt', 'updatedAt'], 'name');
  }

  async get(workspaceId: string, id: string) {
    return this.table.get(workspaceId, id);
  }

  async findByName(workspaceId: string, name: string) {
    return this.table.findByName(workspaceId, name);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string) {
    return this.table.nameTaken(workspaceId, name, exceptId);
  }

  async insert(row: typeof secrets.$inferInsert) {
    const now = new Date();
    this.table.insert(
      withDefaults<SecretRow>(
        { description: '', type: 'generic', global: true, createdBy: null, createdAt: now, updatedAt: now },
        row,
      ),
    );
  }

  async update(
    id: string,
    patch: Partial<Pick<SecretRow, 'name' | 'description' | 'type' | 'global' | 'valuesEncrypted'>>,
  ) {
    this.table.update(id, patch);
  }

  async delete(id: string) {
    this.table.delete(id);
  }
}
