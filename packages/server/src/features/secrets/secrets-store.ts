import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { likePattern, pageOf, sortColumn, totalOf } from '../../platform/database/paging.js';
import { secrets } from '../../platform/database/schema.js';
import type { SecretsStore as SecretsStoreType, SecretRow } from './secrets-store-type.js';

export type { SecretRow } from './secrets-store-type.js';

/** key → sealed value (Keys.encrypt) */
export type SealedValues = Record<string, string>;

const SORTABLE = {
  id: secrets.id,
  name: secrets.name,
  createdAt: secrets.createdAt,
  updatedAt: secrets.updatedAt,
};

/** SQL for secrets; values are stored sealed and never leave this feature in plain text. */
export class SecretsStore implements SecretsStoreType {
  constructor(private readonly db: AppDb) {}

  async list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: SecretRow[]; total: number }> {
    const where = and(
      eq(secrets.workspaceId, workspaceId),
      query.name ? ilike(secrets.name, likePattern(query.name)) : undefined,
    );
    const page = pageOf(query, sortColumn(SORTABLE, query._sort, secrets.name));
    const rows = await this.db
      .select()
      .from(secrets)
      .where(where)
      .orderBy(page.order, asc(secrets.id))
      .offset(page.offset)
      .limit(page.limit);
    const total = totalOf(await this.db.select({ n: count() }).from(secrets).where(where));
    return { rows, total };
  }

  async get(workspaceId: string, id: string): Promise<SecretRow | null> {
    const [row] = await this.db
      .select()
      .from(secrets)
      .where(and(eq(secrets.workspaceId, workspaceId), eq(secrets.id, id)))
      .limit(1);
    return row ?? null;
  }

  async findByName(workspaceId: string, name: string): Promise<SecretRow | null> {
    const [row] = await this.db
      .select()
      .from(secrets)
      .where(and(eq(secrets.workspaceId, workspaceId), eq(secrets.name, name)))
      .limit(1);
    return row ?? null;
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: secrets.id })
      .from(secrets)
      .where(
        and(
          eq(secrets.workspaceId, workspaceId),
          eq(secrets.name, name),
          exceptId ? sql`${secrets.id} <> ${exceptId}` : undefined,
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  async insert(row: typeof secrets.$inferInsert): Promise<void> {
    await this.db.insert(secrets).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<SecretRow, 'name' | 'description' | 'type' | 'global' | 'valuesEncrypted'>>,
  ): Promise<void> {
    await this.db
      .update(secrets)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(secrets.id, id));
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(secrets).where(eq(secrets.id, id));
  }
}
