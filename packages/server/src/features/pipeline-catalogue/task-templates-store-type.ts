import type { taskTemplates } from '../../platform/database/schema.js';

export type NewTaskTemplateRow = typeof taskTemplates.$inferInsert;
export type TaskTemplateRow = typeof taskTemplates.$inferSelect;

/** What the task templates service needs of storage; TaskTemplatesStore (SQL) and FakeTaskTemplatesStore implement it. */
export interface TaskTemplatesStore {
  /** The built-ins (no workspace) and the workspace's own: built-ins last, each by name. */
  list(workspaceId: string): Promise<TaskTemplateRow[]>;
  /** A built-in or one of the workspace's own. */
  get(workspaceId: string, id: string): Promise<TaskTemplateRow | null>;
  findOwnByName(workspaceId: string, name: string): Promise<TaskTemplateRow | null>;
  findBuiltIn(name: string): Promise<TaskTemplateRow | null>;
  /** Throws a unique violation when the workspace already has a template of that name. */
  insert(row: NewTaskTemplateRow): Promise<void>;
  update(
    id: string,
    patch: Partial<Pick<TaskTemplateRow, 'name' | 'description' | 'definition' | 'format' | 'version'>>,
  ): Promise<void>;
  delete(id: string): Promise<void>;
}
