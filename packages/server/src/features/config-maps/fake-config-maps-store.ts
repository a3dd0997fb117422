import type { PipelineListQuery } from '@slipway/contracts';
import { FakeNamedTable, withDefaults } from '../../platform/database/fake-rows.js';
import type { configMaps } from '../../platform/database/schema.js';
import type { ConfigMapRow } from './config-maps-store.js';
import type { ConfigMapsStore } from './config-maps-store-type.js';

/** Config maps in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness. */
export class FakeConfigMapsStore implements ConfigMapsStore {
  private readonly table = new FakeNamedTable<ConfigMapRow>('config_maps', 'config_maps_ws_name');

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

  async insert(row: typeof configMaps.$inferInsert) {
    const now = new Date();
    this.table.insert(
      withDefaults<ConfigMapRow>({ description: '', createdBy: null, createdAt: now, updatedAt: now }, row),
    );
  }

  async update(id: string, patch: Partial<Pick<ConfigMapRow, 'name' | 'description' | 'data'>>) {
    this.table.update(id, patch);
  }

  async delete(id: string) {
    this.table.delete(id);
  }
}
