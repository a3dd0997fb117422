import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import { sortRows } from '../../platform/database/fake-rows.js';
import type { VariableRow } from './variables-store.js';
import type { VariablesStore } from './variables-store-type.js';

/** Variables in memory, with the SQL store's scoping, order and (workspace, name) uniqueness. */
export class FakeVariablesStore extends FakeNamedStore<VariableRow> implements VariablesStore {
  constructor() {
    super('variables', 'variables_ws_name', (now) => ({ description: '', createdAt: now, updatedAt: now }));
  }

  async list(workspaceId: string) {
    return sortRows(this.table.all(workspaceId), (r) => r.name);
  }
}
