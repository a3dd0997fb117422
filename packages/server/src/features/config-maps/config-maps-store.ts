import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { likePattern, pageOf, sortColumn, totalOf } from '../../platform/database/paging.js';
import { configMaps } from '../../platform/database/schema.js';
import type { ConfigMapsStore as ConfigMapsStoreType, ConfigMapRow } from './config-maps-store-type.js';

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
export class ConfigMapsStore implements ConfigMapsStoreType {
  constructor(private readonly db: AppDb) {}

  async list(
    workspaceId: string,
    query: PipelineListQuery,
  ): Promise<{ rows: ConfigMapRow[]; total: number }> {
    const where = and(
      eq(configMaps.workspaceId, workspaceId),
      query.name ? ilike(configMaps.name, likePattern(query.name)) : undefined,
    );
    const page = pageOf(query, sortColumn(SORTABLE, query._sort, configMaps.name));
    const rows = await this.db
      .select()
      .from(configMaps)
      .where(where)
      .orderBy(page.order, asc(configMaps.id))
      .offset(page.offset)
      .limit(page.limit);
    const total = totalOf(await this.db.select({ n: count() }).from(configMaps).where(where));
    return { rows, total };
  }

  async get(workspaceId: string, id: string): Promise<ConfigMapRow | null> {
    const [row] = await this.db
      .select()
      .from(configMaps)
      .where(and(eq(configMaps.workspaceId, workspaceId), eq(configMaps.id, id)))
      .limit(1);
    return row ?? null;
  }

  async findByName(workspaceId: string, name: string): Promise<ConfigMapRow | null> {
    const [row] = await this.db
      .select()
      .from(configMaps)
      .where(and(eq(configMaps.workspaceId, workspaceId), eq(configMaps.name, name)))
      .limit(1);
    return row ?? null;
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: configMaps.id })
      .from(configMaps)
      .where(
        and(
          eq(configMaps.workspaceId, workspaceId),
          eq(configMaps.name, name),
          exceptId ? sql`${configMaps.id} <> ${exceptId}` : undefined,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async insert(row: typeof configMaps.$inferInsert): Promise<void> {
    await this.db.insert(configMaps).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<ConfigMapRow, 'name' | 'description' | 'data'>>,
  ): Promise<void> {
    await this.db
      .update(configMaps)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(configMaps.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(configMaps).where(eq(configMaps.id, id));
  }
}
