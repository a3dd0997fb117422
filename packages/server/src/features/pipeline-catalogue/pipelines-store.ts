import { and, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { PipelineKind, PipelineListQuery } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { pipelineRuns, pipelines, pipelineVersions } from '../../platform/database/schema.js';
import { anyRow, firstRow, rowsWhere } from '../../platform/database/rows.js';
import { getInWorkspace, listPage } from '../../platform/database/workspace-rows.js';
import type { PipelinesStore, PipelineRow, PipelineVersionRow } from './pipelines-store-type.js';

export type { PipelineRow, PipelineVersionRow } from './pipelines-store-type.js';

const SORTABLE = {
  id: pipelines.id,
  name: pipelines.name,
  description: pipelines.description,
  version: pipelines.currentVersion,
  createdAt: pipelines.createdAt,
  updatedAt: pipelines.updatedAt,
} as const;

/** Statuses during which a pipeline cannot be deleted. */
const ACTIVE_RUN_STATUSES = ['pending', 'in_progress'];

/** SQL for pipelines and pipeline templates with their versions. */
export class SqlPipelinesStore implements PipelinesStore {
  constructor(private readonly db: AppDb) {}

  async list(
    workspaceId: string,
    kind: PipelineKind,
    query: PipelineListQuery,
  ): Promise<{ rows: PipelineRow[]; total: number }> {
    return listPage(this.db, pipelines, {
      workspaceId,
      query,
      nameColumn: pipelines.name,
      where: [eq(pipelines.kind, kind)],
      sorts: SORTABLE,
      fallbackSort: pipelines.name,
    });
  }

  async get(workspaceId: string, kind: PipelineKind, id: string): Promise<PipelineRow | null> {
    return getInWorkspace(this.db, pipelines, workspaceId, id, { where: [eq(pipelines.kind, kind)] });
  }

  async nameTaken(
    workspaceId: string,
    kind: PipelineKind,
    name: string,
    exceptId?: string,
  ): Promise<boolean> {
    const where = [
      eq(pipelines.workspaceId, workspaceId),
      eq(pipelines.kind, kind),
      sql`lower(${pipelines.name}) = lower(${name})`,
    ];
    return anyRow(this.db, pipelines, where, exceptId);
  }

  async versions(pipelineId: string): Promise<PipelineVersionRow[]> {
    return rowsWhere(
      this.db,
      pipelineVersions,
      eq(pipelineVersions.pipelineId, pipelineId),
      desc(pipelineVersions.version),
    );
  }

  async version(pipelineId: string, version: number): Promise<PipelineVersionRow | null> {
    return firstRow(
      this.db,
      pipelineVersions,
      and(eq(pipelineVersions.pipelineId, pipelineId), eq(pipelineVersions.version, version)),
    );
  }

  async create(
    row: typeof pipelines.$inferInsert,
    version: { definition: string; format: string; createdBy: string | null },
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(pipelines).values({ ...row, currentVersion: 1 });
      await tx.insert(pipelineVersions).values({ pipelineId: row.id!, version: 1, ...version });
    });
  }

  /**
   * Changes the pipeline and, when a definition is given, stores it as the next version. With
   * `onlyIfChanged`, a definition equal to the current version's (read under the row lock, so two
   * syncs at once store one version) is not stored. Answers whether a version was stored.
   */
  async update(
    id: string,
    patch: Partial<
      Pick<
        PipelineRow,
        'name' | 'description' | 'rollbackPipelineId' | 'source' | 'lastSyncedAt' | 'syncError'
      >
    >,
    version?: { definition: string; format: string; createdBy: string | null },
    options: { onlyIfChanged?: boolean } = {},
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ current: pipelines.currentVersion })
        .from(pipelines)
        .where(eq(pipelines.id, id))
        .for('update');
      if (!locked) return false;
      let store = Boolean(version);
      if (version && options.onlyIfChanged) {
        const [current] = await tx
          .select({ definition: pipelineVersions.definition })
          .from(pipelineVersions)
          .where(and(eq(pipelineVersions.pipelineId, id), eq(pipelineVersions.version, locked.current)));
        store = current?.definition !== version.definition;
      }
      const next = store ? locked.current + 1 : locked.current;
      if (version && store)
        await tx.insert(pipelineVersions).values({ pipelineId: id, version: next, ...version });
      await tx
        .update(pipelines)
        .set({ ...patch, currentVersion: next, updatedAt: new Date() })
        .where(eq(pipelines.id, id));
      return store;
    });
  }

  /** Deletes the pipeline unless a run of it is pending or in progress; false when one is. */
  async deleteUnlessActive(pipelineId: string): Promise<boolean> {
    const active = this.db
      .select({ id: pipelineRuns.id })
      .from(pipelineRuns)
      .where(and(eq(pipelineRuns.pipelineId, pipelineId), inArray(pipelineRuns.status, ACTIVE_RUN_STATUSES)));
    const deleted = await this.db
      .delete(pipelines)
      .where(and(eq(pipelines.id, pipelineId), notExists(active)))
      .returning({ id: pipelines.id });
    return deleted.length > 0;
  }
}
