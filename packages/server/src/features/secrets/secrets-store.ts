import type { PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { secrets } from '../../platform/database/schema.js';
import { nameAndDateSorts, SqlNamedStore } from '../../platform/database/sql-named-store.js';
import type { SecretsStore, SecretRow } from './secrets-store-type.js';

export type { SecretRow } from './secrets-store-type.js';

/** key → sealed value (Keys.encrypt) */
export type SealedValues = Record<string, string>;

const SORTABLE = nameAndDateSorts(secrets);

/** SQL for secrets; values are stored sealed and never leave this feature in plain text. */
export class SqlSecretsStore extends SqlNamedStore<typeof secrets> implements SecretsStore {
  constructor(db: AppDb) {
    super(db, secrets);
  }

  async list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: SecretRow[]; total: number }> {
    return this.listNamed(workspaceId, query, SORTABLE);
  }
}
