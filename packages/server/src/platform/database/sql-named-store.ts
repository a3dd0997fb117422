import type { AppDb } from './database.js';
import { deleteById, updateById, type RowOf, type UpdatableTable } from './rows.js';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import {
  findByName,
  getInWorkspace,
  listPage,
  nameTaken,
  type ListPageOptions,
  type NamedWorkspaceTable,
  type Page,
} from './workspace-rows.js';

/** A table of named rows that are stamped when made and when changed. */
type DatedNamedTable = NamedWorkspaceTable & { createdAt: PgColumn; updatedAt: PgColumn };

/** The sorts of a list by id, name, creation or last change. */
export function nameAndDateSorts(table: DatedNamedTable) {
  return { id: table.id, name: table.name, createdAt: table.createdAt, updatedAt: table.updatedAt };
}

/**
 * What the SQL stores of a workspace's named rows share (decision 030): one row of the workspace
 * by id or by name, the name check, the insert, an update that stamps `updated_at`, and the
 * delete, each the statement the stores wrote by hand. A store adds its list and its own queries.
 */
export class SqlNamedStore<T extends NamedWorkspaceTable & UpdatableTable> {
  constructor(
    protected readonly db: AppDb,
    protected readonly table: T,
  ) {}

  /**
   * A page of the workspace's rows, found by name (`query.name`) and meeting `where`, sorted on
   * one of `sorts` (by name when the query names none of them).
   */
  protected listNamed(
    workspaceId: string,
    query: ListPageOptions['query'],
    sorts: ListPageOptions['sorts'],
    where?: (SQL | undefined)[],
  ): Promise<Page<RowOf<T>>> {
    const { name } = this.table;
    return listPage(this.db, this.table, {
      workspaceId,
      query,
      nameColumn: name,
      sorts,
      fallbackSort: name,
      where,
    });
  }

  async get(workspaceId: string, id: string): Promise<RowOf<T> | null> {
    return getInWorkspace(this.db, this.table, workspaceId, id);
  }

  async findByName(workspaceId: string, name: string): Promise<RowOf<T> | null> {
    return findByName(this.db, this.table, workspaceId, name);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    return nameTaken(this.db, this.table, workspaceId, name, exceptId);
  }

  async insert(row: T['$inferInsert']): Promise<void> {
    await this.db.insert(this.table).values(row);
  }

  async update(id: string, patch: Partial<RowOf<T>>): Promise<void> {
    await updateById(this.db, this.table, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, this.table, id);
  }
}
