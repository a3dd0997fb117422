import type { AppDb } from './database.js';
import { deleteById, updateById, type RowOf, type UpdatableTable } from './rows.js';
import { findByName, getInWorkspace, nameTaken, type NamedWorkspaceTable } from './workspace-rows.js';

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
