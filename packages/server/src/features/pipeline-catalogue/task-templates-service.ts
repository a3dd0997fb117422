import { randomUUID } from 'node:crypto';
import type { TaskTemplate, TaskTemplateCreate, TaskTemplateUpdate } from '@slipway/contracts';
import { Lru } from '../../platform/cache/lru.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { ConflictError, InputError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import { parseDefinition, validateTask, type Task } from '../pipelines/definition/index.js';
import { describedRow } from '../../platform/named-rows.js';
import { definitionError, formatOf } from './definition-text.js';
import type { TaskTemplateRow } from './task-templates-store.js';
import type { TaskTemplatesStore } from './task-templates-store-type.js';

/** Template texts parsed before (the built-ins are parsed for every run otherwise). */
const parsedTexts = new Lru<string, Task | null>(512);

/** A template's one Task (null when the text has none): parsed once per text, a copy each time. */
function parseTemplate(text: string): Task | undefined {
  let task = parsedTexts.get(text);
  if (task === undefined) {
    const parsed = parseDefinition(text);
    task = (parsed.ok ? parsed.tasks[0] : undefined) ?? null;
    parsedTexts.set(text, task);
  }
  return task === null ? undefined : structuredClone(task);
}

export const BUILT_IN_READ_ONLY = 'Built-in task templates cannot be changed';
export const TASK_NAME_TAKEN = 'A task template with this name already exists';

function toTaskTemplate(row: TaskTemplateRow): TaskTemplate {
  return {
    ...describedRow(row),
    version: row.version,
    builtIn: row.builtIn,
    definition: row.definition,
    format: row.format === 'json' ? 'json' : 'yaml',
  };
}

/** Parses and validates a Task template's text: exactly one Task, valid on its own. */
export function checkTaskText(text: string): Task {
  const parsed = parseDefinition(text);
  if (!parsed.ok) throw definitionError(parsed.errors);
  if (parsed.documents.length !== 1 || parsed.tasks.length !== 1)
    throw new InputError('definition: a task template is exactly one Tekton Task document', [
      { path: 'definition', message: 'a task template is exactly one Tekton Task document' },
    ]);
  const task = parsed.tasks[0]!;
  const result = validateTask(task);
  if (!result.ok) throw definitionError(result.errors);
  return task;
}

/** Task templates: the built-ins (read-only) and a workspace's own Tekton Tasks. */
export class TaskTemplatesService {
  constructor(private readonly store: TaskTemplatesStore) {}

  async list(workspaceId: string): Promise<TaskTemplate[]> {
    return (await this.store.list(workspaceId)).map(toTaskTemplate);
  }

  async get(workspaceId: string, id: string): Promise<TaskTemplate> {
    return toTaskTemplate(await this.require(workspaceId, id));
  }

  async create(workspaceId: string, input: TaskTemplateCreate): Promise<TaskTemplate> {
    const task = checkTaskText(input.definition);
    const name = input.name ?? task.metadata.name;
    await this.ensureNameFree(workspaceId, name);
    const id = randomUUID();
    try {
      await this.store.insert({
        id,
        workspaceId,
        name,
        description: input.description ?? task.spec.description ?? '',
        definition: input.definition,
        format: formatOf(input.definition),
        builtIn: false,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(TASK_NAME_TAKEN);
      throw err;
    }
    return this.get(workspaceId, id);
  }

  async update(workspaceId: string, id: string, input: TaskTemplateUpdate): Promise<TaskTemplate> {
    const row = await this.requireOwn(workspaceId, id);
    if (input.definition !== undefined) checkTaskText(input.definition);
    if (input.name !== undefined && input.name !== row.name)
      await this.ensureNameFree(workspaceId, input.name);
    const changedText = input.definition !== undefined && input.definition !== row.definition;
    try {
      await this.store.update(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(changedText
          ? { definition: input.definition, format: formatOf(input.definition!), version: row.version + 1 }
          : {}),
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(TASK_NAME_TAKEN);
      throw err;
    }
    return this.get(workspaceId, id);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.requireOwn(workspaceId, id);
    await this.store.delete(id);
  }

  /** The Tasks a workspace's pipelines may reference by name: built-ins, then its own over them. */
  async catalogue(workspaceId: string): Promise<Map<string, Task>> {
    const rows = await this.store.list(workspaceId);
    const tasks = new Map<string, Task>();
    for (const row of [...rows.filter((r) => r.builtIn), ...rows.filter((r) => !r.builtIn)]) {
      const task = parseTemplate(row.definition);
      if (task) tasks.set(row.name, task);
    }
    return tasks;
  }

  private async require(workspaceId: string, id: string): Promise<TaskTemplateRow> {
    const row = await this.store.get(workspaceId, id);
    if (!row) throw new NotFoundError('Task template not found');
    return row;
  }

  private async requireOwn(workspaceId: string, id: string): Promise<TaskTemplateRow> {
    const row = await this.require(workspaceId, id);
    if (row.builtIn || row.workspaceId === null) throw new NotAllowedError(BUILT_IN_READ_ONLY);
    return row;
  }

  private async ensureNameFree(workspaceId: string, name: string): Promise<void> {
    if (await this.store.findBuiltIn(name))
      throw new ConflictError(`"${name}" is the name of a built-in task template`);
    if (await this.store.findOwnByName(workspaceId, name)) throw new ConflictError(TASK_NAME_TAKEN);
  }
}
