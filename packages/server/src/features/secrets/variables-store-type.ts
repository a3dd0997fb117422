import type { variables } from '../../platform/database/schema.js';

export type VariableRow = typeof variables.$inferSelect;

/** What the variables service needs of storage; VariablesStore (SQL) and FakeVariablesStore implement it. */
export interface VariablesStore {
  /** A workspace's variables by name. */
  list(workspaceId: string): Promise<VariableRow[]>;
  get(workspaceId: string, id: string): Promise<VariableRow | null>;
  nameTaken(workspaceId: string, name: string, exceptId?: string): Promise<boolean>;
  /** Throws a unique violation when the workspace already has a variable of that name. */
  insert(row: typeof variables.$inferInsert): Promise<void>;
  update(id: string, patch: Partial<Pick<VariableRow, 'name' | 'value' | 'description'>>): Promise<void>;
  delete(id: string): Promise<void>;
}
