import type { ConfigMap, ConfigMapCreate, ConfigMapUpdate, PipelineListQuery } from '@slipway/contracts';
import { describedRow, givenFields, NamedRowsService } from '../../platform/named-rows.js';
import type { ConfigMapData, ConfigMapRow } from './config-maps-store.js';
import type { ConfigMapsStore } from './config-maps-store-type.js';

export const CONFIG_MAP_NAME_TAKEN = 'A config map with this name already exists';

/** What the API says about a config map: its values too, which are not secret. */
export function toConfigMap(row: ConfigMapRow): ConfigMap {
  return {
    ...describedRow(row),
    data: { ...(row.data as ConfigMapData) },
  };
}

/** Config maps: plain key → value sets of a workspace, for steps' env and workspace files. */
export class ConfigMapsService extends NamedRowsService<ConfigMapRow, ConfigMap> {
  constructor(private readonly store: ConfigMapsStore) {
    super(store, { notFound: 'Config map not found', nameTaken: CONFIG_MAP_NAME_TAKEN }, toConfigMap);
  }

  async list(workspaceId: string, query: PipelineListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toConfigMap), total };
  }

  async create(workspaceId: string, input: ConfigMapCreate, createdBy: string | null): Promise<ConfigMap> {
    return this.insertNamed(workspaceId, input.name, (id) =>
      this.store.insert({
        id,
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        data: input.data ?? {},
        createdBy,
      }),
    );
  }

  /** Given fields replace theirs; `data`, when given, is the whole new set of keys. */
  async update(workspaceId: string, id: string, input: ConfigMapUpdate): Promise<ConfigMap> {
    return this.updateNamed(workspaceId, id, input.name, () =>
      this.store.update(id, givenFields(input, ['name', 'description', 'data'])),
    );
  }
}
