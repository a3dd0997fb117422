import { and, asc, count, eq, ilike, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { AppDb } from './database.js';
import { likePattern, pageOf, sortColumn, totalOf, type PageQuery } from './paging.js';
import { anyRow, firstRow, type RowOf, type TableWithId } from './rows.js';

/**
 * The list, get and name check of a workspace's resources (config maps, secrets, clusters, …):
 * every statement is scoped by `workspace_id`, as the stores wrote it by hand.
 */

/** A table whose rows have an `id` and belong to a workspace. */
export type WorkspaceTable = TableWithId & { workspaceId: PgColumn };

/** A workspace's table whose rows have a `name`. */
export type NamedWorkspaceTable = WorkspaceTable & { name: PgColumn };

type Sortable = Parameters<typeof asc>[0];

/** More conditions a statement's rows meet besides the workspace (`kind`, `status`, …); undefined ones are left out. */
type Conditions = readonly (SQL | undefined)[];

export interface ListPageOptions {
  workspaceId: string;
  query: PageQuery & { _sort: string; name?: string | undefined };
  /** The column `query.name` finds rows by (ILIKE, anywhere in it); none: the list has no name search. */
  nameColumn?: PgColumn;
  /** The columns `query._sort` may name. */
  sorts: Readonly<Record<string, Sortable>>;
  /** The column sorted on when `query._sort` is not one of `sorts`. */
  fallbackSort: Sortable;
  where?: Conditions;
  /** The second sort key, which orders rows that tie on the first; `id` ascending unless given. */
  tiebreak?: SQL;
}

export interface Page<R> {
  rows: R[];
  total: number;
}

/**
 * One page of a workspace's rows with the total of all pages: `SELECT … WHERE workspace_id = …
 * [AND name ILIKE …] [AND where…] ORDER BY sort, tiebreak OFFSET … LIMIT …` and its `count(*)`.
 * With `select` (a `db.select(…).from(table)…$dynamic()`, e.g. with a join) the rows are what it
 * selects; the total counts the table's rows alone.
 */
export function listPage<T extends WorkspaceTable>(
  db: AppDb,
  table: T,
  options: ListPageOptions,
): Promise<Page<RowOf<T>>>;
export function listPage<T extends WorkspaceTable, Q extends PgSelect>(
  db: AppDb,
  table: T,
  options: ListPageOptions & { select: Q },
): Promise<Page<Awaited<Q>[number]>>;
export async function listPage(
  db: AppDb,
  table: WorkspaceTable,
  options: ListPageOptions & { select?: PgSelect },
): Promise<Page<unknown>> {
  const { query, nameColumn } = options;
  const where = and(
    eq(table.workspaceId, options.workspaceId),
    nameColumn && query.name ? ilike(nameColumn, likePattern(query.name)) : undefined,
    ...(options.where ?? []),
  );
  const page = pageOf(query, sortColumn(options.sorts, query._sort, options.fallbackSort));
  const select = options.select ?? db.select().from(table).$dynamic();
  const rows = await select
    .where(where)
    .orderBy(page.order, options.tiebreak ?? asc(table.id))
    .offset(page.offset)
    .limit(page.limit);
  const total = totalOf(await db.select({ n: count() }).from(table).where(where));
  return { rows, total };
}

/**
 * Row `id` of the workspace (`… WHERE workspace_id = … AND id = … [AND where…] LIMIT 1`), or null.
 * With `select` (as for listPage) the row is what it selects.
 */
export function getInWorkspace<T extends WorkspaceTable>(
  db: AppDb,
  table: T,
  workspaceId: string,
  id: string,
  options?: { where?: Conditions },
): Promise<RowOf<T> | null>;
export function getInWorkspace<T extends WorkspaceTable, Q extends PgSelect>(
  db: AppDb,
  table: T,
  workspaceId: string,
  id: string,
  options: { where?: Conditions; select: Q },
): Promise<Awaited<Q>[number] | null>;
export async function getInWorkspace(
  db: AppDb,
  table: WorkspaceTable,
  workspaceId: string,
  id: string,
  options: { where?: Conditions; select?: PgSelect } = {},
): Promise<unknown> {
  const where = and(eq(table.workspaceId, workspaceId), eq(table.id, id), ...(options.where ?? []));
  if (!options.select) return firstRow(db, table, where);
  const [row] = await options.select.where(where).limit(1);
  return row ?? null;
}

/** The workspace's row named exactly `name`, or null. */
export function findByName<T extends NamedWorkspaceTable>(
  db: AppDb,
  table: T,
  workspaceId: string,
  name: string,
): Promise<RowOf<T> | null> {
  return firstRow(db, table, and(eq(table.workspaceId, workspaceId), eq(table.name, name)));
}

/** Whether a row of the workspace other than `exceptId` is named exactly `name`. */
export function nameTaken<T extends NamedWorkspaceTable>(
  db: AppDb,
  table: T,
  workspaceId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  return anyRow(db, table, [eq(table.workspaceId, workspaceId), eq(table.name, name)], exceptId);
}
