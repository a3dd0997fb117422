import { randomUUID } from 'node:crypto';
import type { TaskTemplate, TaskTemplateCreate, TaskTemplateUpdate } from '@slipway/contracts';
import { Lru } from '../../platform/cache/lru.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { ConflictError, InputError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import { parseDefinition, validateTask, type Task } from '../pipelines/definition/index.js';
import {
  stepActionIssues,
  type StepAction,
  type StepActionCatalogue,
} from '../pipelines/definition/step-action.js';
import { inlineStepActions } from '../pipelines/definition/step-action-inline.js';
import { describedRow } from '../../platform/named-rows.js';
import { definitionError, formatOf } from './definition-text.js';
import type { TaskTemplateRow } from './task-templates-store.js';
import type { TaskTemplatesStore } from './task-templates-store-type.js';

/** Template texts parsed before (the built-ins are parsed for every run otherwise). */
const parsedTexts = new Lru<string, Task | StepAction | null>(512);

/** A template's one Task or StepAction (undefined when the text has none): parsed once per text, a copy each time. */
function parseTemplate(text: string): Task | StepAction | undefined {
  let document = parsedTexts.get(text);
  if (document === undefined) {
    const parsed = parseDefinition(text);
    document = (parsed.ok ? (parsed.tasks[0] ?? parsed.stepActions[0]) : undefined) ?? null;
    parsedTexts.set(text, document);
  }
  return document === null ? undefined : structuredClone(document);
}

/** A Task with the StepActions its steps reference inlined (step-action-inline.ts); issues left to validation. */
function withStepActions(task: Task, stepActions: StepActionCatalogue): Task {
  const { spec } = inlineStepActions(task.spec, stepActions);
  return spec === task.spec ? task : { ...task, spec };
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

const ONE_DOCUMENT = 'a task template is exactly one Tekton Task or StepAction document';

/**
 * Parses and validates a template's text: exactly one Task, valid on its own with the given
 * StepActions inlined, or one StepAction (decision 035).
 */
export function checkTaskText(text: string, stepActions: StepActionCatalogue = new Map()): Task | StepAction {
  const parsed = parseDefinition(text);
  if (!parsed.ok) throw definitionError(parsed.errors);
  const document = parsed.documents[0];
  if (parsed.documents.length !== 1 || (document?.kind !== 'Task' && document?.kind !== 'StepAction'))
    throw new InputError(`definition: ${ONE_DOCUMENT}`, [{ path: 'definition', message: ONE_DOCUMENT }]);
  if (document.kind === 'StepAction') {
    const issues = stepActionIssues(document);
    if (issues.length > 0) throw definitionError(issues);
    return document;
  }
  const inlined = inlineStepActions(document.spec, stepActions);
  const result = validateTask(inlined.spec);
  const issues = [...inlined.issues, ...(result.ok ? [] : result.errors)];
  if (issues.length > 0) throw definitionError(issues);
  return document;
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
    const task = checkTaskText(input.definition, await this.stepActions(workspaceId));
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
    if (input.definition !== undefined) checkTaskText(input.definition, await this.stepActions(workspaceId));
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

  /**
   * The Tasks a workspace's pipelines may reference by name: built-ins, then its own over them,
   * the StepActions their steps reference inlined.
   */
  async catalogue(workspaceId: string): Promise<Map<string, Task>> {
    const { tasks, stepActions } = await this.documents(workspaceId);
    for (const [name, task] of tasks) tasks.set(name, withStepActions(task, stepActions));
    return tasks;
  }

  /** The StepActions a workspace's steps may reference by `ref.name` (templates holding one). */
  async stepActions(workspaceId: string): Promise<Map<string, StepAction>> {
    return (await this.documents(workspaceId)).stepActions;
  }

  private async documents(workspaceId: string) {
    const rows = await this.store.list(workspaceId);
    const tasks = new Map<string, Task>();
    const stepActions = new Map<string, StepAction>();
    for (const row of [...rows.filter((r) => r.builtIn), ...rows.filter((r) => !r.builtIn)]) {
      const document = parseTemplate(row.definition);
      if (document?.kind === 'Task') tasks.set(row.name, document);
      else if (document?.kind === 'StepAction') stepActions.set(row.name, document);
    }
    return { tasks, stepActions };
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
