import { randomUUID } from 'node:crypto';
import type { ConfigMap, ConfigMapCreate, ConfigMapUpdate, PipelineListQuery } from '@slipway/contracts';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import type { ConfigMapData, ConfigMapRow } from './config-maps-store.js';
import type { ConfigMapsStore } from './config-maps-store-type.js';

export const CONFIG_MAP_NAME_TAKEN = 'A config map with this name already exists';

/** What the API says about a config map: its values too, which are not secret. */
export function toConfigMap(row: ConfigMapRow): ConfigMap {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    data: { ...(row.data as ConfigMapData) },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Config maps: plain key → value sets of a workspace, for steps' env and workspace files. */
export class ConfigMapsService {
  constructor(private readonly store: ConfigMapsStore) {}

  async list(workspaceId: string, query: PipelineListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toConfigMap), total };
  }

  async get(workspaceId: string, id: string): Promise<ConfigMap> {
    return toConfigMap(await this.require(workspaceId, id));
  }

  async create(workspaceId: string, input: ConfigMapCreate, createdBy: string | null): Promise<ConfigMap> {
    if (await this.store.nameTaken(workspaceId, input.name)) throw new ConflictError(CONFIG_MAP_NAME_TAKEN);
    const id = randomUUID();
    await this.guard(() =>
      this.store.insert({
        id,
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        data: input.data ?? {},
        createdBy,
      }),
    );
    return this.get(workspaceId, id);
  }

  /** Given fields replace theirs; `data`, when given, is the whole new set of keys. */
  async update(workspaceId: string, id: string, input: ConfigMapUpdate): Promise<ConfigMap> {
    const row = await this.require(workspaceId, id);
    if (
      input.name !== undefined &&
      input.name !== row.name &&
      (await this.store.nameTaken(workspaceId, input.name, id))
    )
      throw new ConflictError(CONFIG_MAP_NAME_TAKEN);
    await this.guard(() =>
      this.store.update(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.data !== undefined ? { data: input.data } : {}),
      }),
    );
    return this.get(workspaceId, id);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.require(workspaceId, id);
    await this.store.delete(id);
  }

  private async guard(write: () => Promise<void>) {
    try {
      await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(CONFIG_MAP_NAME_TAKEN);
      throw err;
    }
  }

  private async require(workspaceId: string, id: string): Promise<ConfigMapRow> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError('Config map not found');
    return row;
  }
}
