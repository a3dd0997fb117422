import { NotFoundError } from '../../platform/errors.js';
import type { Keys } from '../../platform/keys.js';
import type { SealedValues } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

/**
 * Reads secret values for the run engine (secretKeyRef env, files, log masking). The only place
 * a secret's value is decrypted.
 */
export class SecretReader {
  constructor(
    private readonly store: SecretsStore,
    private readonly keys: Keys,
  ) {}

  /** One key of a secret; throws NotFoundError naming the secret and key when either is missing. */
  async value(workspaceId: string, secretName: string, key: string): Promise<string> {
    const row = await this.store.findByName(workspaceId, secretName);
    const sealed = row ? (row.valuesEncrypted as SealedValues)[key] : undefined;
    if (!row || sealed === undefined || !Object.hasOwn(row.valuesEncrypted as object, key))
      throw new NotFoundError(
        row
          ? `Secret "${secretName}" has no key "${key}"`
          : `Secret "${secretName}" (key "${key}") not found`,
      );
    return this.keys.decrypt(sealed);
  }

  /** Every key of a secret, or null when there is no such secret. */
  async values(workspaceId: string, secretName: string): Promise<Record<string, string> | null> {
    const row = await this.store.findByName(workspaceId, secretName);
    if (!row) return null;
    return Object.fromEntries(
      Object.entries(row.valuesEncrypted as SealedValues).map(([k, v]) => [k, this.keys.decrypt(v)]),
    );
  }
}
