import { copyOf, sortRows } from '../../platform/database/fake-rows.js';
import type { variables } from '../../platform/database/schema.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import type { VariableRow } from './variables-store.js';
import type { VariablesStore } from './variables-store-type.js';

/** Variables in memory, with the SQL store's scoping, order and (workspace, name) uniqueness. */
export class FakeVariablesStore implements VariablesStore {
  private readonly rows = new Map<string, VariableRow>();

  async list(workspaceId: string) {
    const mine = [...this.rows.values()].filter((r) => r.workspaceId === workspaceId);
    return sortRows(mine, (r) => r.name).map(copyOf);
  }

  async get(workspaceId: string, id: string) {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId ? copyOf(row) : null;
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string) {
    return this.clash(workspaceId, name, exceptId);
  }

  /** What the (workspace, name) unique index refuses; apart from nameTaken, so a test may stub that. */
  private clash(workspaceId: string, name: string, exceptId?: string) {
    return [...this.rows.values()].some(
      (r) => r.workspaceId === workspaceId && r.name === name && r.id !== exceptId,
    );
  }

  async insert(row: typeof variables.$inferInsert) {
    if (this.rows.has(row.id)) throw uniqueViolation('variables_pkey');
    if (this.clash(row.workspaceId, row.name)) throw uniqueViolation('variables_ws_name');
    const now = new Date();
    this.rows.set(row.id, {
      id: row.id,
      workspaceId: row.workspaceId,
      name: row.name,
      value: row.value,
      description: row.description ?? '',
      createdAt: row.createdAt ?? now,
      updatedAt: row.updatedAt ?? now,
    });
  }

  async update(id: string, patch: Partial<Pick<VariableRow, 'name' | 'value' | 'description'>>) {
    const row = this.rows.get(id);
    if (!row) return;
    if (patch.name !== undefined && this.clash(row.workspaceId, patch.name, id))
      throw uniqueViolation('variables_ws_name');
    this.rows.set(id, { ...row, ...copyOf(patch), updatedAt: new Date() });
  }

  async delete(id: string) {
    this.rows.delete(id);
  }
}
