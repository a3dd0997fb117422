import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { deleteById, updateById } from '../../platform/database/rows.js';
import { findByName, getInWorkspace, listPage, nameTaken } from '../../platform/database/workspace-rows.js';
import { configMaps } from '../../platform/database/schema.js';
import type { ConfigMapsStore, ConfigMapRow } from './config-maps-store-type.js';

export type { ConfigMapRow } from './config-maps-store-type.js';

/** key → value, as stored in `data` */
export type ConfigMapData = Record<string, string>;

const SORTABLE = {
  id: configMaps.id,
  name: configMaps.name,
  createdAt: configMaps.createdAt,
  updatedAt: configMaps.updatedAt,
};

/** SQL for a workspace's config maps; every read is scoped to the workspace. */
export class SqlConfigMapsStore implements ConfigMapsStore {
  constructor(private readonly db: AppDb) {}

  async list(
    workspaceId: string,
    query: PipelineListQuery,
  ): Promise<{ rows: ConfigMapRow[]; total: number }> {
    return listPage(this.db, configMaps, {
      workspaceId,
      query,
      nameColumn: configMaps.name,
      sorts: SORTABLE,
      fallbackSort: configMaps.name,
    });
  }

  async get(workspaceId: string, id: string): Promise<ConfigMapRow | null> {
    return getInWorkspace(this.db, configMaps, workspaceId, id);
  }

  async findByName(workspaceId: string, name: string): Promise<ConfigMapRow | null> {
    return findByName(this.db, configMaps, workspaceId, name);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    return nameTaken(this.db, configMaps, workspaceId, name, exceptId);
  }

  async insert(row: typeof configMaps.$inferInsert): Promise<void> {
    await this.db.insert(configMaps).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<ConfigMapRow, 'name' | 'description' | 'data'>>,
  ): Promise<void> {
    await updateById(this.db, configMaps, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, configMaps, id);
  }
}
