import type { PipelineListQuery } from '@slipway/contracts';
import type { PipelineRow } from '../pipeline-catalogue/pipelines-store.js';

/**
 * What the external pipelines service reads of the pipelines that have a git source (versions
 * are written through the pipelines store); ExternalPipelinesStore (SQL) and
 * FakeExternalPipelinesStore implement it.
 */
export interface ExternalPipelinesStore {
  /** A page of the workspace's pipelines with a source, filtered by name (anywhere, any case), with the total. */
  list(workspaceId: string, query: PipelineListQuery): Promise<{ rows: PipelineRow[]; total: number }>;
  /** The workspace's pipeline when it has a source. */
  get(workspaceId: string, id: string): Promise<PipelineRow | null>;
  /** A failed sync: the error is kept, the versions and last good sync time are not touched. */
  recordSyncError(id: string, message: string): Promise<void>;
}
