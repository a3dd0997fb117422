import type { PipelineListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import type { ConfigMapRow } from './config-maps-store.js';
import type { ConfigMapsStore } from './config-maps-store-type.js';

/** Config maps in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness. */
export class FakeConfigMapsStore extends FakeNamedStore<ConfigMapRow> implements ConfigMapsStore {
  constructor() {
    super('config_maps', 'config_maps_ws_name', (now) => ({
      description: '',
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    }));
  }

  async list(workspaceId: string, query: PipelineListQuery) {
    return this.table.page(workspaceId, query, ['id', 'name', 'createdAt', 'updatedAt'], 'name');
  }
}
