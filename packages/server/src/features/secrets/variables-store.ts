import { asc, eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { variables } from '../../platform/database/schema.js';
import { deleteById, rowsWhere, updateById } from '../../platform/database/rows.js';
import { getInWorkspace, nameTaken } from '../../platform/database/workspace-rows.js';
import type { VariablesStore, VariableRow } from './variables-store-type.js';

export type { VariableRow } from './variables-store-type.js';

/** SQL for a workspace's plain variables. */
export class SqlVariablesStore implements VariablesStore {
  constructor(private readonly db: AppDb) {}

  async list(workspaceId: string): Promise<VariableRow[]> {
    return rowsWhere(this.db, variables, eq(variables.workspaceId, workspaceId), asc(variables.name));
  }

  async get(workspaceId: string, id: string): Promise<VariableRow | null> {
    return getInWorkspace(this.db, variables, workspaceId, id);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean> {
    return nameTaken(this.db, variables, workspaceId, name, exceptId);
  }

  async insert(row: typeof variables.$inferInsert): Promise<void> {
    await this.db.insert(variables).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<VariableRow, 'name' | 'value' | 'description'>>,
  ): Promise<void> {
    await updateById(this.db, variables, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, variables, id);
  }
}
