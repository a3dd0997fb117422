import type { PipelineListQuery } from '@slipway/contracts';
import type { secrets } from '../../platform/database/schema.js';

export type SecretRow = typeof secrets.$inferSelect;

/** What the secrets service and reader need of storage; SecretsStore (SQL) and FakeSecretsStore implement it. */
export interface SecretsStore {
  /** A page of a workspace's secrets, filtered by name (anywhere, any case), with the total. */
  list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: SecretRow[]; total: number }>;
  get(workspaceId: string, id: string): Promise<SecretRow | null>;
  findByName(workspaceId: string, name: string): Promise<SecretRow | null>;
  nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean>;
  /** Throws a unique violation when the workspace already has a secret of that name. */
  insert(row: typeof secrets.$inferInsert): Promise<void>;
  update(
    id: string,
    patch: Partial<Pick<SecretRow, 'name' | 'description' | 'type' | 'global' | 'valuesEncrypted'>>,
  ): Promise<void>;
  delete(id: string): Promise<void>;
}
