import { compareValues, copyOf, withDefaults } from '../../platform/database/fake-rows.js';
import { uniqueViolation } from '../../platform/database/unique-violation.js';
import type { NewTaskTemplateRow, TaskTemplateRow } from './task-templates-store.js';
import type { TaskTemplatesStore } from './task-templates-store-type.js';

/**
 * Task templates in memory, as the SQL store keeps them: a workspace sees the built-ins (no
 * workspace) and its own; (workspace, name) is unique among a workspace's own (built-ins, whose
 * workspace is NULL, are not compared by the index).
 */
export class FakeTaskTemplatesStore implements TaskTemplatesStore {
  private readonly rows = new Map<string, TaskTemplateRow>();

  async list(workspaceId: string) {
    return [...this.rows.values()]
      .filter((r) => visible(r, workspaceId))
      .sort((a, b) => compareValues(a.builtIn, b.builtIn) || compareValues(a.name, b.name))
      .map(copyOf);
  }

  async get(workspaceId: string, id: string) {
    const row = this.rows.get(id);
    return row && visible(row, workspaceId) ? copyOf(row) : null;
  }

  async findOwnByName(workspaceId: string, name: string) {
    const row = [...this.rows.values()].find((r) => r.workspaceId === workspaceId && r.name === name);
    return row ? copyOf(row) : null;
  }

  async findBuiltIn(name: string) {
    const row = [...this.rows.values()].find((r) => r.workspaceId === null && r.name === name);
    return row ? copyOf(row) : null;
  }

  async insert(row: NewTaskTemplateRow) {
    if (this.rows.has(row.id)) throw uniqueViolation('task_templates_pkey');
    if (row.workspaceId && this.clash(row.workspaceId, row.name))
      throw uniqueViolation('task_templates_ws_name');
    const now = new Date();
    this.rows.set(
      row.id,
      withDefaults<TaskTemplateRow>(
        { workspaceId: null, description: '', version: 1, builtIn: false, createdAt: now, updatedAt: now },
        copyOf(row),
      ),
    );
  }

  async update(
    id: string,
    patch: Partial<Pick<TaskTemplateRow, 'name' | 'description' | 'definition' | 'format' | 'version'>>,
  ) {
    const row = this.rows.get(id);
    if (!row) return;
    if (patch.name !== undefined && row.workspaceId && this.clash(row.workspaceId, patch.name, id))
      throw uniqueViolation('task_templates_ws_name');
    this.rows.set(id, { ...row, ...copyOf(patch), updatedAt: new Date() });
  }

  async delete(id: string) {
    this.rows.delete(id);
  }

  private clash(workspaceId: string, name: string, exceptId?: string) {
    return [...this.rows.values()].some(
      (r) => r.workspaceId === workspaceId && r.name === name && r.id !== exceptId,
    );
  }
}

function visible(row: TaskTemplateRow, workspaceId: string) {
  return row.workspaceId === null || row.workspaceId === workspaceId;
}
