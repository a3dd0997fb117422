import { and, eq, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { AppDb } from './database.js';

/**
 * The reads and writes every store repeats, over one table. Each is the statement the stores
 * wrote by hand (`SELECT … LIMIT 1`, `UPDATE … SET …, updated_at = now WHERE id = …`), so moving a
 * store onto them changes no SQL result.
 */

/** A row of `T`, all its columns. */
export type RowOf<T extends PgTable> = T['$inferSelect'];

/** A table whose rows have an `id` column. */
export type TableWithId = PgTable & { id: PgColumn };

/** A table whose rows have an `id` and an `updated_at` column. */
export type UpdatableTable = TableWithId & { updatedAt: PgColumn };

/** The first row of `table` that meets `where` (`SELECT * … LIMIT 1`), or null. */
export async function firstRow<T extends PgTable>(
  db: AppDb,
  table: T,
  where: SQL | undefined,
): Promise<RowOf<T> | null> {
  // drizzle cannot resolve a select from a generic table: read it as a plain PgTable, whose rows are T's.
  const [row] = (await db
    .select()
    .from(table as PgTable)
    .where(where)
    .limit(1)) as RowOf<T>[];
  return row ?? null;
}

/** The rows of `table` that meet `where`, in `orderBy` (`SELECT * … ORDER BY …`). */
export async function rowsWhere<T extends PgTable>(
  db: AppDb,
  table: T,
  where: SQL | undefined,
  ...orderBy: SQL[]
): Promise<RowOf<T>[]> {
  // As in firstRow.
  return (await db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...orderBy)) as RowOf<T>[];
}

/**
 * Whether a row of `table` meets all `conditions` (undefined ones left out), other than row
 * `exceptId` when given (`SELECT id … LIMIT 1`).
 */
export async function anyRow(
  db: AppDb,
  table: TableWithId,
  conditions: readonly (SQL | undefined)[],
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(...conditions, exceptId ? ne(table.id, exceptId) : undefined))
    .limit(1);
  return Boolean(row);
}

/** Sets `patch` on row `id` and its `updated_at` to now. */
export async function updateById<T extends UpdatableTable>(
  db: AppDb,
  table: T,
  id: string,
  patch: Partial<RowOf<T>>,
): Promise<void> {
  // `updatedAt` is a column of every UpdatableTable; drizzle cannot see that through the generic.
  const set = { ...patch, updatedAt: new Date() } as PgUpdateSetSource<T>;
  await db.update(table).set(set).where(eq(table.id, id));
}

/** Deletes row `id`. */
export async function deleteById<T extends TableWithId>(db: AppDb, table: T, id: string): Promise<void> {
  await db.delete(table).where(eq(table.id, id));
}
