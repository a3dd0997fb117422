import { randomUUID } from 'node:crypto';
import type { Variable, VariableCreate, VariableUpdate } from '@slipway/contracts';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import type { VariableRow } from './variables-store.js';
import type { VariablesStore } from './variables-store-type.js';

export const VARIABLE_NAME_TAKEN = 'A variable with this name already exists';

function toVariable(row: VariableRow): Variable {
  return {
    id: row.id,
    name: row.name,
    value: row.value,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Plain variables, injected as env into every step of a workspace's runs. */
export class VariablesService {
  constructor(private readonly store: VariablesStore) {}

  /** Every variable of the workspace, as one page (its answer counts them in X-Total-Count). */
  async list(workspaceId: string): Promise<{ rows: Variable[] }> {
    return { rows: (await this.store.list(workspaceId)).map(toVariable) };
  }

  /** name → value, for the run engine. */
  async environment(workspaceId: string): Promise<Record<string, string>> {
    return Object.fromEntries((await this.store.list(workspaceId)).map((v) => [v.name, v.value]));
  }

  async get(workspaceId: string, id: string): Promise<Variable> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError('Variable not found');
    return toVariable(row);
  }

  async create(workspaceId: string, input: VariableCreate): Promise<Variable> {
    if (await this.store.nameTaken(workspaceId, input.name)) throw new ConflictError(VARIABLE_NAME_TAKEN);
    const id = randomUUID();
    await this.guard(() =>
      this.store.insert({
        id,
        workspaceId,
        name: input.name,
        value: input.value,
        description: input.description ?? '',
      }),
    );
    return this.get(workspaceId, id);
  }

  async update(workspaceId: string, id: string, input: VariableUpdate): Promise<Variable> {
    await this.get(workspaceId, id);
    if (input.name !== undefined && (await this.store.nameTaken(workspaceId, input.name, id)))
      throw new ConflictError(VARIABLE_NAME_TAKEN);
    await this.guard(() => this.store.update(id, input));
    return this.get(workspaceId, id);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.get(workspaceId, id);
    await this.store.delete(id);
  }

  private async guard(write: () => Promise<void>) {
    try {
      await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(VARIABLE_NAME_TAKEN);
      throw err;
    }
  }
}
