import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { secrets } from '../../platform/database/schema.js';
import { deleteById, updateById } from '../../platform/database/rows.js';
import { findByName, getInWorkspace, listPage, nameTaken } from '../../platform/database/workspace-rows.js';
import type { SecretsStore, SecretRow } from './secrets-store-type.js';

export type { SecretRow } from './secrets-store-type.js';

/** key → sealed value (Keys.encrypt) */
export type SealedValues = Record<string, string>;

const SORTABLE = {
  id: secrets.id,
  name: secrets.name,
  createdAt: secrets.createdAt,
  updatedAt: secrets.updatedAt,
};

/** SQL for secrets; values are stored sealed and never leave this feature in plain text. */
export class SqlSecretsStore implements SecretsStore {
  constructor(private readonly db: AppDb) {}

  async list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: SecretRow[]; total: number }> {
    return listPage(this.db, secrets, {
      workspaceId,
      query,
      nameColumn: secrets.name,
      sorts: SORTABLE,
      fallbackSort: secrets.name,
    });
  }

  async get(workspaceId: string, id: string): Promise<SecretRow | null> {
    return getInWorkspace(this.db, secrets, workspaceId, id);
  }

  async findByName(workspaceId: string, name: string): Promise<SecretRow | null> {
    return findByName(this.db, secrets, workspaceId, name);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    return nameTaken(this.db, secrets, workspaceId, name, exceptId);
  }

  async insert(row: typeof secrets.$inferInsert): Promise<void> {
    await this.db.insert(secrets).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<SecretRow, 'name' | 'description' | 'type' | 'global' | 'valuesEncrypted'>>,
  ): Promise<void> {
    await updateById(this.db, secrets, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, secrets, id);
  }
}
