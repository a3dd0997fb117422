import {
  SECRET_TYPES,
  type PipelineListQuery,
  type Secret,
  type SecretCreate,
  type SecretType,
  type SecretUpdate,
} from '@slipway/contracts';
import { InputError } from '../../platform/errors.js';
import type { Keys } from '../../platform/keys.js';
import { describedRow, givenFields, NamedRowsService } from '../../platform/named-rows.js';
import type { SealedValues, SecretRow } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

export const SECRET_NAME_TAKEN = 'A secret with this name already exists';

/** What the API says about a secret: its keys, never its values. */
export function toSecret(row: SecretRow): Secret {
  return {
    ...describedRow(row),
    type: (SECRET_TYPES as readonly string[]).includes(row.type) ? (row.type as SecretType) : 'generic',
    global: row.global,
    keys: Object.keys(row.valuesEncrypted as SealedValues).sort(),
  };
}

/** Secrets: values sealed with AES-256-GCM per key; answers name the keys only. */
export class SecretsService extends NamedRowsService<SecretRow, Secret> {
  constructor(
    private readonly store: SecretsStore,
    private readonly keys: Keys,
  ) {
    super(store, { notFound: 'Secret not found', nameTaken: SECRET_NAME_TAKEN }, toSecret);
  }

  async list(workspaceId: string, query: PipelineListQuery) {
    const { rows, total } = await this.store.list(workspaceId, query);
    return { rows: rows.map(toSecret), total };
  }

  async create(workspaceId: string, input: SecretCreate, createdBy: string | null): Promise<Secret> {
    const plain = { ...(input.values ?? {}), ...(input.value !== undefined ? { value: input.value } : {}) };
    return this.insertNamed(workspaceId, input.name, (id) =>
      this.store.insert({
        id,
        workspaceId,
        name: input.name,
        description: input.description ?? '',
        type: input.type ?? 'generic',
        global: input.global ?? true,
        valuesEncrypted: this.seal(plain),
        createdBy,
      }),
    );
  }

  /** Given keys get new values, a null value removes its key, omitted keys keep theirs. */
  async update(workspaceId: string, id: string, input: SecretUpdate): Promise<Secret> {
    return this.updateNamed(workspaceId, id, input.name, (row) =>
      this.store.update(id, {
        ...givenFields(input, ['name', 'description', 'type', 'global']),
        ...this.resealed(row, input),
      }),
    );
  }

  /** The row's sealed values with the update's given ones; nothing when it gives none. */
  private resealed(row: SecretRow, input: SecretUpdate): { valuesEncrypted?: SealedValues } {
    const given = { ...(input.values ?? {}), ...(input.value !== undefined ? { value: input.value } : {}) };
    if (Object.keys(given).length === 0) return {};
    const valuesEncrypted = { ...(row.valuesEncrypted as SealedValues) };
    for (const [key, value] of Object.entries(given)) {
      if (value === null) delete valuesEncrypted[key];
      else valuesEncrypted[key] = this.keys.encrypt(value);
    }
    if (Object.keys(valuesEncrypted).length === 0)
      throw new InputError('values: a secret needs at least one value', [
        { path: 'body.values', message: 'a secret needs at least one value' },
      ]);
    return { valuesEncrypted };
  }

  private seal(plain: Record<string, string>): SealedValues {
    return Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, this.keys.encrypt(v)]));
  }
}
