import type { PipelineListQuery } from '@slipway/contracts';
import { FakeNamedStore } from '../../platform/database/fake-named-store.js';
import type { SecretRow } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

/** Secrets in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness. */
export class FakeSecretsStore extends FakeNamedStore<SecretRow> implements SecretsStore {
  constructor() {
    super('secrets', 'secrets_ws_name', (now) => ({
      description: '',
      type: 'generic',
      global: true,
      createdBy: null,
      createdAt: now,
      updatedAt: now,
    }));
  }

  async list(workspaceId: string, query: PipelineListQuery) {
    return this.table.page(workspaceId, query, ['id', 'name', 'createdAt', 'updatedAt'], 'name');
  }
}
