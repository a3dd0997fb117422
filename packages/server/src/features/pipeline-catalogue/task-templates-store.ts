import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { taskTemplates } from '../../platform/database/schema.js';
import { deleteById, firstRow, rowsWhere, updateById } from '../../platform/database/rows.js';
import { findByName } from '../../platform/database/workspace-rows.js';
import type { TaskTemplatesStore, NewTaskTemplateRow, TaskTemplateRow } from './task-templates-store-type.js';

export type { NewTaskTemplateRow, TaskTemplateRow } from './task-templates-store-type.js';

/** SQL for task templates: a workspace sees the built-ins (workspace_id NULL) and its own. */
export class SqlTaskTemplatesStore implements TaskTemplatesStore {
  constructor(private readonly db: AppDb) {}

  private visible(workspaceId: string) {
    return or(isNull(taskTemplates.workspaceId), eq(taskTemplates.workspaceId, workspaceId));
  }

  async list(workspaceId: string): Promise<TaskTemplateRow[]> {
    return rowsWhere(
      this.db,
      taskTemplates,
      this.visible(workspaceId),
      asc(taskTemplates.builtIn),
      asc(taskTemplates.name),
    );
  }

  async get(workspaceId: string, id: string): Promise<TaskTemplateRow | null> {
    return firstRow(this.db, taskTemplates, and(eq(taskTemplates.id, id), this.visible(workspaceId)));
  }

  async findOwnByName(workspaceId: string, name: string): Promise<TaskTemplateRow | null> {
    return findByName(this.db, taskTemplates, workspaceId, name);
  }

  async findBuiltIn(name: string): Promise<TaskTemplateRow | null> {
    return firstRow(
      this.db,
      taskTemplates,
      and(isNull(taskTemplates.workspaceId), eq(taskTemplates.name, name)),
    );
  }

  async insert(row: NewTaskTemplateRow): Promise<void> {
    await this.db.insert(taskTemplates).values(row);
  }

  async update(
    id: string,
    patch: Partial<Pick<TaskTemplateRow, 'name' | 'description' | 'definition' | 'format' | 'version'>>,
  ): Promise<void> {
    await updateById(this.db, taskTemplates, id, patch);
  }

  async delete(id: string): Promise<void> {
    await deleteById(this.db, taskTemplates, id);
  }
}
