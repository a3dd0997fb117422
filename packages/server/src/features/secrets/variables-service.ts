import type { Variable, VariableCreate, VariableUpdate } from '@slipway/contracts';
import { describedRow, NamedRowsService } from '../../platform/named-rows.js';
import type { VariableRow } from './variables-store.js';
import type { VariablesStore } from './variables-store-type.js';

export const VARIABLE_NAME_TAKEN = 'A variable with this name already exists';

function toVariable(row: VariableRow): Variable {
  return {
    ...describedRow(row),
    value: row.value,
  };
}

/** Plain variables, injected as env into every step of a workspace's runs. */
export class VariablesService extends NamedRowsService<VariableRow, Variable> {
  constructor(private readonly store: VariablesStore) {
    super(store, { notFound: 'Variable not found', nameTaken: VARIABLE_NAME_TAKEN }, toVariable);
  }

  /** Every variable of the workspace, as one page (its answer counts them in X-Total-Count). */
  async list(workspaceId: string): Promise<{ rows: Variable[] }> {
    return { rows: (await this.store.list(workspaceId)).map(toVariable) };
  }

  /** name → value, for the run engine. */
  async environment(workspaceId: string): Promise<Record<string, string>> {
    return Object.fromEntries((await this.store.list(workspaceId)).map((v) => [v.name, v.value]));
  }

  async create(workspaceId: string, input: VariableCreate): Promise<Variable> {
    return this.insertNamed(workspaceId, input.name, (id) =>
      this.store.insert({
        id,
        workspaceId,
        name: input.name,
        value: input.value,
        description: input.description ?? '',
      }),
    );
  }

  async update(workspaceId: string, id: string, input: VariableUpdate): Promise<Variable> {
    return this.updateNamed(workspaceId, id, input.name, () => this.store.update(id, input));
  }
}
