import type { PipelineKind, PipelineListQuery } from '@slipway/contracts';
import type { pipelineVersions, pipelines } from '../../platform/database/schema.js';

export type PipelineRow = typeof pipelines.$inferSelect;
export type PipelineVersionRow = typeof pipelineVersions.$inferSelect;

export type PipelinePatch = Partial<
  Pick<PipelineRow, 'name' | 'description' | 'rollbackPipelineId' | 'source' | 'lastSyncedAt' | 'syncError'>
>;
export interface NewPipelineVersion {
  definition: string;
  format: string;
  createdBy: string | null;
}

/**
 * What the pipelines, external pipelines and definition loader need of storage; PipelinesStore
 * (SQL) and FakePipelinesStore implement it.
 */
export interface PipelinesStore {
  /** A page of a workspace's pipelines or templates, filtered by name (anywhere, any case), with the total. */
  list(
    workspaceId: string,
    kind: PipelineKind,
    query: PipelineListQuery,
  ): Promise<{ rows: PipelineRow[]; total: number }>;
  get(workspaceId: string, kind: PipelineKind, id: string): Promise<PipelineRow | null>;
  /** Is the name held by another pipeline of that kind in the workspace, ignoring case? */
  nameTaken(workspaceId: string, kind: PipelineKind, name: string, exceptId?: string): Promise<boolean>;
  /** The pipeline's versions, newest first. */
  versions(pipelineId: string): Promise<PipelineVersionRow[]>;
  version(pipelineId: string, version: number): Promise<PipelineVersionRow | null>;
  /** The pipeline at version 1, all or nothing; a unique violation when (workspace, kind, name) is taken. */
  create(row: typeof pipelines.$inferInsert, version: NewPipelineVersion): Promise<void>;
  /**
   * Changes the pipeline and, when a definition is given, stores it as the next version (with
   * `onlyIfChanged`, only when it differs from the current one). Answers whether a version was stored.
   */
  update(
    id: string,
    patch: PipelinePatch,
    version?: NewPipelineVersion,
    options?: { onlyIfChanged?: boolean },
  ): Promise<boolean>;
  /** Deletes the pipeline unless a run of it is pending or in progress; false when one is. */
  deleteUnlessActive(pipelineId: string): Promise<boolean>;
}
