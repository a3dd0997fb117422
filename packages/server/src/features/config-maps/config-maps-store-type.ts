import type { PipelineListQuery } from '@slipway/contracts';
import type { configMaps } from '../../platform/database/schema.js';

export type ConfigMapRow = typeof configMaps.$inferSelect;

/** What the config maps service and reader need of storage; ConfigMapsStore (SQL) and FakeConfigMapsStore implement it. */
export interface ConfigMapsStore {
  /** A page of a workspace's config maps, filtered by name (anywhere, any case), with the total. */
  list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: ConfigMapRow[]; total: number }>;
  get(workspaceId: string, id: string): Promise<ConfigMapRow | null>;
  findByName(workspaceId: string, name: string): Promise<ConfigMapRow | null>;
  nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean>;
  /** Throws a unique violation when the workspace already has a config map of that name. */
  insert(row: typeof configMaps.$inferInsert): Promise<void>;
  update(id: string, patch: Partial<Pick<ConfigMapRow, 'name' | 'description' | 'data'>>): Promise<void>;
  delete(id: string): Promise<void>;
}
