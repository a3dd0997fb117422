import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { nameAndDateSorts, SqlNamedStore } from '../../platform/database/sql-named-store.js';
import { configMaps } from '../../platform/database/schema.js';
import type { ConfigMapsStore, ConfigMapRow } from './config-maps-store-type.js';

export type { ConfigMapRow } from './config-maps-store-type.js';

/** key → value, as stored in `data` */
export type ConfigMapData = Record<string, string>;

const SORTABLE = nameAndDateSorts(configMaps);

/** SQL for a workspace's config maps; every read is scoped to the workspace. */
export class SqlConfigMapsStore extends SqlNamedStore<typeof configMaps> implements ConfigMapsStore {
  constructor(db: AppDb) {
    super(db, configMaps);
  }

  async list(
    workspaceId: string,
    query: PipelineListQuery,
  ): Promise<{ rows: ConfigMapRow[]; total: number }> {
    return this.listNamed(workspaceId, query, SORTABLE);
  }
}
