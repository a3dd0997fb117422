import { FakeNamedTable, sortRows, withDefaults } from '../../platform/database/fake-rows.js';
import type { variables } from '../../platform/database/schema.js';
import type { VariableRow } from './variables-store.js';
import type { VariablesStore } from './variables-store-type.js';

/** Variables in memory, with the SQL store's scoping, order and (workspace, name) uniqueness. */
export class FakeVariablesStore implements VariablesStore {
  private readonly table = new FakeNamedTable<VariableRow>('variables', 'variables_ws_name');

  async list(workspaceId: string) {
    return sortRows(this.table.all(workspaceId), (r) => r.name);
  }

  async get(workspaceId: string, id: string) {
    return this.table.get(workspaceId, id);
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string) {
    return this.table.nameTaken(workspaceId, name, exceptId);
  }

  async insert(row: typeof variables.$inferInsert) {
    const now = new Date();
    this.table.insert(withDefaults<VariableRow>({ description: '', createdAt: now, updatedAt: now }, row));
  }

  async update(id: string, patch: Partial<Pick<VariableRow, 'name' | 'value' | 'description'>>) {
    this.table.update(id, patch);
  }

  async delete(id: string) {
    this.table.delete(id);
  }
}
