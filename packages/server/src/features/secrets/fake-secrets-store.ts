import type { PipelineListQuery } from '@slipway/contracts';
import { containsIgnoringCase, copyOf, pageRows } from '../../platform/database/fake-rows.js';
import type { secrets } from '../../platform/database/schema.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import type { SecretRow } from './secrets-store.js';
import type { SecretsStore } from './secrets-store-type.js';

const SORTABLE = ['id', 'name', 'createdAt', 'updatedAt'] as const;

/** Secrets in memory, with the SQL store's scoping, paging and (workspace, name) uniqueness. */
export class FakeSecretsStore implements SecretsStore {
  private readonly rows = new Map<string, SecretRow>();

  async list(workspaceId: string, query: PipelineListQuery) {
    const sort = (SORTABLE as readonly string[]).includes(query._sort)
      ? (query._sort as (typeof SORTABLE)[number])
      : 'name';
    const matching = [...this.rows.values()].filter(
      (r) => r.workspaceId === workspaceId && (!query.name || containsIgnoringCase(r.name, query.name)),
    );
    const page = pageRows(
      matching,
      query,
      (r) => r[sort],
      (r) => r.id,
    );
    return { rows: page.rows.map(copyOf), total: page.total };
  }

  async get(workspaceId: string, id: string) {
    const row = this.rows.get(id);
    return row && row.workspaceId === workspaceId ? copyOf(row) : null;
  }

  async findByName(workspaceId: string, name: string) {
    const row = [...this.rows.values()].find((r) => r.workspaceId === workspaceId && r.name === name);
    return row ? copyOf(row) : null;
  }

  async nameTaken(workspaceId: string, name: string, exceptId?: string) {
    return this.clash(workspaceId, name, exceptId);
  }

  /** What the (workspace, name) unique index refuses; apart from nameTaken, so a test may stub that. */
  private clash(workspaceId: string, name: string, exceptId?: string) {
    return [...this.rows.values()].some(
      (r) => r.workspaceId === workspaceId && r.name === name && r.id !== exceptId,
    );
  }

  async insert(row: typeof secrets.$inferInsert) {
    if (this.rows.has(row.id)) throw uniqueViolation('secrets_pkey');
    if (this.clash(row.workspaceId, row.name)) throw uniqueViolation('secrets_ws_name');
    const now = new Date();
    this.rows.set(row.id, {
      id: row.id,
      workspaceId: row.workspaceId,
      name: row.name,
      description: row.description ?? '',
      type: row.type ?? 'generic',
      global: row.global ?? true,
      valuesEncrypted: copyOf(row.valuesEncrypted),
      createdBy: row.createdBy ?? null,
      createdAt: row.createdAt ?? now,
      updatedAt: row.updatedAt ?? now,
    });
  }

  async update(
    id: string,
    patch: Partial<Pick<SecretRow, 'name' | 'description' | 'type' | 'global' | 'valuesEncrypted'>>,
  ) {
    const row = this.rows.get(id);
    if (!row) return;
    if (patch.name !== undefined && this.clash(row.workspaceId, patch.name, id))
      throw uniqueViolation('secrets_ws_name');
    this.rows.set(id, { ...row, ...copyOf(patch), updatedAt: new Date() });
  }

  async delete(id: string) {
    this.rows.delete(id);
  }
}
