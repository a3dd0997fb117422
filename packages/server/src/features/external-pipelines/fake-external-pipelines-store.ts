import type { PipelineListQuery } from '@slipway/contracts';
import { containsIgnoringCase, pageRows } from '../../platform/database/fake-rows.js';
import type { FakePipelinesStore } from '../pipeline-catalogue/fake-pipelines-store.js';
import type { PipelineRow } from '../pipeline-catalogue/pipelines-store.js';
import type { ExternalPipelinesStore } from './external-pipelines-store-type.js';

const SORTABLE: Record<string, keyof PipelineRow> = {
  id: 'id',
  name: 'name',
  version: 'currentVersion',
  lastSyncedAt: 'lastSyncedAt',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
};

/** The external pipelines (kind pipeline, with a source) of the FakePipelinesStore it is given, as the SQL reads the same table. */
export class FakeExternalPipelinesStore implements ExternalPipelinesStore {
  constructor(private readonly pipelines: FakePipelinesStore) {}

  async list(workspaceId: string, query: PipelineListQuery) {
    const key = SORTABLE[query._sort] ?? 'name';
    const matching = this.external(workspaceId).filter(
      (r) => !query.name || containsIgnoringCase(r.name, query.name),
    );
    return pageRows(
      matching,
      query,
      (r) => r[key],
      (r) => r.id,
    );
  }

  async get(workspaceId: string, id: string) {
    return this.external(workspaceId).find((r) => r.id === id) ?? null;
  }

  async recordSyncError(id: string, message: string) {
    this.pipelines.write(id, { syncError: message });
  }

  private external(workspaceId: string) {
    return this.pipelines
      .peekAll()
      .filter((r) => r.workspaceId === workspaceId && r.kind === 'pipeline' && r.source !== null);
  }
}
