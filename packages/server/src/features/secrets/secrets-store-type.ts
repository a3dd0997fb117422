import type { PipelineListQuery } from '@slipway/contracts';
import type { secrets } from '../../platform/database/schema.js';
import type { NamedStore } from '../../platform/named-rows.js';

export type SecretRow = typeof secrets.$inferSelect;

/** What the secrets service and reader need of storage; SecretsStore (SQL) and FakeSecretsStore implement it. */
export interface SecretsStore extends NamedStore<
  SecretRow,
  typeof secrets.$inferInsert,
  Partial<Pick<SecretRow, 'name' | 'description' | 'type' | 'global' | 'valuesEncrypted'>>
> {
  /** A page of a workspace's secrets, filtered by name (anywhere, any case), with the total. */
  list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: SecretRow[]; total: number }>;
  findByName(workspaceId: string, name: string): Promise<SecretRow | null>;
}
