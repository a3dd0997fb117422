import { randomUUID } from 'node:crypto';
import {
  SECRET_TYPES,
  type PipelineListQuery,
  type Secret,
  type SecretCreate,
  type SecretType,
  type SecretUpdate,
} from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import type { Keys } from '../../platform/keys.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import type { SealedValues, SecretRow } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

export const SECRET_NAME_TAKEN = 'A secret with this name already exists';

/** What the API says about a secret: its keys, never its values. */
export function toSecret(row: SecretRow): Secret {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: (SECRET_TYPES as readonly string[]).includes(row.type) ? (row.type as SecretType) : 'generic',
    global: row.global,
    keys: Object.keys(row.valuesEncrypted as SealedValues).sort(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Secrets: values sealed with AES-256-GCM per key; answers name the keys only. */
export class SecretsService {
  constructor(
    private readonly store: SecretsStore,
    private readonly keys: Keys,
  ) {}

  async list(workspaceId: string, query: PipelineListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toSecret), total };
  }

  async get(workspaceId: string, id: string): Promise<Secret> {
    return toSecret(await this.require(workspaceId, id));
  }

  async create(workspaceId: string, input: SecretCreate, createdBy: string | null): Promise<Secret> {
    const plain = { ...(input.values ?? {}), ...(input.value !== undefined ? { value: input.value } : {}) };
    if (await this.store.nameTaken(workspaceId, input.name)) throw new ConflictError(SECRET_NAME_TAKEN);
    const id = randomUUID();
    try {
      await this.store.insert({
        id,
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        type: input.type ?? 'generic',
        global: input.global ?? true,
        valuesEncrypted: this.seal(plain),
        createdBy,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(SECRET_NAME_TAKEN);
      throw err;
    }
    return this.get(workspaceId, id);
  }

  /** Given keys get new values, a null value removes its key, omitted keys keep theirs. */
  async update(workspaceId: string, id: string, input: SecretUpdate): Promise<Secret> {
    const row = await this.require(workspaceId, id);
    if (
      input.name !== undefined &&
      input.name !== row.name &&
      (await this.store.nameTaken(workspaceId, input.name, id))
    )
      throw new ConflictError(SECRET_NAME_TAKEN);
    let valuesEncrypted: SealedValues | undefined;
    const given = { ...(input.values ?? {}), ...(input.value !== undefined ? { value: input.value } : {}) };
    if (Object.keys(given).length > 0) {
      valuesEncrypted = { ...(row.valuesEncrypted as SealedValues) };
      for (const [key, value] of Object.entries(given)) {
        if (value === null) delete valuesEncrypted[key];
        else valuesEncrypted[key] = this.keys.encrypt(value);
      }
      if (Object.keys(valuesEncrypted).length === 0)
        throw new InputError('values: a secret needs at least one value', [
          { path: 'body.values', message: 'a secret needs at least one value' },
        ]);
    }
    try {
      await this.store.update(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.type !== undefined ? { type: input.type } : {}),
        ...(input.global !== undefined ? { global: input.global } : {}),
        ...(valuesEncrypted ? { valuesEncrypted } : {}),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(SECRET_NAME_TAKEN);
      throw err;
    }
    return this.get(workspaceId, id);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.require(workspaceId, id);
    await this.store.delete(id);
  }

  private seal(plain: Record<string, string>): SealedValues {
    return Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, this.keys.encrypt(v)]));
  }

  private async require(workspaceId: string, id: string): Promise<SecretRow> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError('Secret not found');
    return row;
  }
}
