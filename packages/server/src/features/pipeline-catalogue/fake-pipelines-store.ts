import type { PipelineKind, PipelineListQuery } from '@slipway/contracts';
import {
  copyOf,
  pageRows,
  sortRows,
  withDefaults,
  containsIgnoringCase,
} from '../../platform/database/fake-rows.js';
import type { pipelines } from '../../platform/database/schema.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import type { PipelineRow, PipelineVersionRow } from './pipelines-store.js';
import type { NewPipelineVersion, PipelinePatch, PipelinesStore } from './pipelines-store-type.js';

const SORTABLE: Record<string, keyof PipelineRow> = {
  id: 'id',
  name: 'name',
  description: 'description',
  version: 'currentVersion',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
};

/**
 * Pipelines and their versions in memory, as the SQL store keeps them: workspace and kind
 * scoping, the exact (workspace, kind, name) unique index beside the case-insensitive nameTaken,
 * versions numbered from 1, and no delete while a run is active (tests say so with startRun).
 */
export class FakePipelinesStore implements PipelinesStore {
  private readonly rows = new Map<string, PipelineRow>();
  private versionRows: PipelineVersionRow[] = [];
  private readonly activeRuns = new Map<string, number>();

  /** A run of the pipeline is now pending or in progress. */
  startRun(pipelineId: string): void {
    this.activeRuns.set(pipelineId, (this.activeRuns.get(pipelineId) ?? 0) + 1);
  }

  endRun(pipelineId: string): void {
    this.activeRuns.set(pipelineId, Math.max(0, (this.activeRuns.get(pipelineId) ?? 0) - 1));
  }

  /** Every pipeline as it is now, for fakes of stores over the same table (external pipelines). */
  peekAll(): PipelineRow[] {
    return [...this.rows.values()].map(copyOf);
  }

  /** Sets columns as given, updatedAt untouched (a store's own `SET` of a few columns). */
  write(id: string, patch: Partial<PipelineRow>): void {
    const row = this.rows.get(id);
    if (row) this.rows.set(id, { ...row, ...copyOf(patch) });
  }

  async list(workspaceId: string, kind: PipelineKind, query: PipelineListQuery) {
    const key = SORTABLE[query._sort] ?? 'name';
    const matching = [...this.rows.values()].filter(
      (r) =>
        r.workspaceId === workspaceId &&
        r.kind === kind &&
        (!query.name || containsIgnoringCase(r.name, query.name)),
    );
    const page = pageRows(
      matching,
      query,
      (r) => r[key],
      (r) => r.id,
    );
    return { rows: page.rows.map(copyOf), total: page.total };
  }

  async get(workspaceId: string, kind: PipelineKind, id: string) {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId && row.kind === kind ? copyOf(row) : null;
  }

  async nameTaken(workspaceId: string, kind: PipelineKind, name: string, exceptId?: string) {
    return [...this.rows.values()].some(
      (r) =>
        r.workspaceId === workspaceId &&
        r.kind === kind &&
        r.name.toLowerCase() === name.toLowerCase() &&
        r.id !== exceptId,
    );
  }

  async versions(pipelineId: string) {
    return sortRows(
      this.versionRows.filter((v) => v.pipelineId === pipelineId),
      (v) => v.version,
      'DESC',
    ).map(copyOf);
  }

  async version(pipelineId: string, version: number) {
    const found = this.versionRows.find((v) => v.pipelineId === pipelineId && v.version === version);
    return found ? copyOf(found) : null;
  }

  async create(row: typeof pipelines.$inferInsert, version: NewPipelineVersion) {
    if (this.rows.has(row.id)) throw uniqueViolation('pipelines_pkey');
    const kind = row.kind ?? 'pipeline';
    if (this.clash(row.workspaceId, kind, row.name)) throw uniqueViolation('pipelines_ws_kind_name');
    const now = new Date();
    this.rows.set(
      row.id,
      withDefaults<PipelineRow>(
        {
          kind,
          description: '',
          rollbackPipelineId: null,
          source: null,
          lastSyncedAt: null,
          syncError: null,
          createdBy: null,
          createdAt: now,
          updatedAt: now,
        },
        { ...copyOf(row), currentVersion: 1 },
      ),
    );
    this.versionRows.push({ pipelineId: row.id, version: 1, ...version, createdAt: now });
  }

  async update(
    id: string,
    patch: PipelinePatch,
    version?: NewPipelineVersion,
    options: { onlyIfChanged?: boolean } = {},
  ) {
    const row = this.rows.get(id);
    if (!row) return false;
    if (patch.name !== undefined && this.clash(row.workspaceId, row.kind, patch.name, id))
      throw uniqueViolation('pipelines_ws_kind_name');
    let store = Boolean(version);
    if (version && options.onlyIfChanged)
      store = (await this.version(id, row.currentVersion))?.definition !== version.definition;
    const next = store ? row.currentVersion + 1 : row.currentVersion;
    if (version && store)
      this.versionRows.push({ pipelineId: id, version: next, ...version, createdAt: new Date() });
    this.rows.set(id, { ...row, ...copyOf(patch), currentVersion: next, updatedAt: new Date() });
    return store;
  }

  async deleteUnlessActive(pipelineId: string) {
    if (!this.rows.has(pipelineId) || (this.activeRuns.get(pipelineId) ?? 0) > 0) return false;
    this.rows.delete(pipelineId);
    this.versionRows = this.versionRows.filter((v) => v.pipelineId !== pipelineId);
    return true;
  }

  /** What the exact (workspace, kind, name) unique index refuses. */
  private clash(workspaceId: string, kind: string, name: string, exceptId?: string) {
    return [...this.rows.values()].some(
      (r) => r.workspaceId === workspaceId && r.kind === kind && r.name === name && r.id !== exceptId,
    );
  }
}
