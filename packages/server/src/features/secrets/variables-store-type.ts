import type { variables } from '../../platform/database/schema.js';
import type { NamedStore } from '../../platform/named-rows.js';

export type VariableRow = typeof variables.$inferSelect;

/** What the variables service needs of storage; VariablesStore (SQL) and FakeVariablesStore implement it. */
export interface VariablesStore extends NamedStore<
  VariableRow,
  typeof variables.$inferInsert,
  Partial<Pick<VariableRow, 'name' | 'value' | 'description'>>
> {
  /** A workspace's variables by name. */
  list(workspaceId: string): Promise<VariableRow[]>;
}
