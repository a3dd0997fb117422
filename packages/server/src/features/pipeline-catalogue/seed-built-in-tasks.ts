import { randomUUID } from 'node:crypto';
import { BUILT_IN_TASKS } from './built-in-tasks/index.js';
import type { TaskTemplatesStore } from './task-templates-store-type.js';

/**
 * Seeds the built-in task templates, idempotently: a missing one is inserted, a changed one is
 * brought up to date with its version raised. (NULL workspace ids never collide in the unique
 * index, so the check is made here.)
 */
export async function seedBuiltInTasks(store: TaskTemplatesStore): Promise<void> {
  for (const task of BUILT_IN_TASKS) {
    const found = await store.findBuiltIn(task.name);
    if (!found) {
      await store.insert({
        id: randomUUID(),
        workspaceId: null,
        name: task.name,
        description: task.description,
        definition: task.definition,
        format: 'yaml',
        builtIn: true,
      });
    } else if (found.definition !== task.definition || found.description !== task.description) {
      await store.update(found.id, {
        definition: task.definition,
        description: task.description,
        version: found.version + 1,
      });
    }
  }
}
