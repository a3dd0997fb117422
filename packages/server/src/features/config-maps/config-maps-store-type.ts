import type { PipelineListQuery } from '@slipway/contracts';
import type { configMaps } from '../../platform/database/schema.js';
import type { NamedStore } from '../../platform/named-rows.js';

export type ConfigMapRow = typeof configMaps.$inferSelect;

/** What the config maps service and reader need of storage; ConfigMapsStore (SQL) and FakeConfigMapsStore implement it. */
export interface ConfigMapsStore extends NamedStore<
  ConfigMapRow,
  typeof configMaps.$inferInsert,
  Partial<Pick<ConfigMapRow, 'name' | 'description' | 'data'>>
> {
  /** A page of a workspace's config maps, filtered by name (anywhere, any case), with the total. */
  list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: ConfigMapRow[]; total: number }>;
  findByName(workspaceId: string, name: string): Promise<ConfigMapRow | null>;
}
