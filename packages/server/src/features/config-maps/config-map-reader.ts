import type { ConfigMapData } from './config-maps-store.js';
import type { ConfigMapsStore } from './config-maps-store-type.js';

/** Reads config maps by name for the run engine (env, envFrom and workspace files). */
export class ConfigMapReader {
  constructor(private readonly store: ConfigMapsStore) {}

  /** Every key of the workspace's config map, or null when there is no such config map. */
  async data(workspaceId: string, name: string): Promise<Record<string, string> | null> {
    const row = await this.store.findByName(workspaceId, name);
    return row ? { ...(row.data as ConfigMapData) } : null;
  }
}
