import { asc, eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { variables } from '../../platform/database/schema.js';
import { rowsWhere } from '../../platform/database/rows.js';
import { SqlNamedStore } from '../../platform/database/sql-named-store.js';
import type { VariablesStore, VariableRow } from './variables-store-type.js';

export type { VariableRow } from './variables-store-type.js';

/** SQL for a workspace's plain variables. */
export class SqlVariablesStore extends SqlNamedStore<typeof variables> implements VariablesStore {
  constructor(db: AppDb) {
    super(db, variables);
  }

  async list(workspaceId: string): Promise<VariableRow[]> {
    return rowsWhere(this.db, variables, eq(variables.workspaceId, workspaceId), asc(variables.name));
  }
}
