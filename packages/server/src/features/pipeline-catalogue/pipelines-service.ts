import { randomUUID } from 'node:crypto';
import type {
  PipelineCreate,
  PipelineDetail,
  PipelineSourceView,
  PipelineKind,
  PipelineListQuery,
  PipelineSummary,
  PipelineUpdate,
  PipelineVersion,
  DefinitionFormat,
} from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { checkDefinition, type Pipeline, type Task } from '../pipelines/definition/index.js';
import type { StepAction } from '../pipelines/definition/step-action.js';
import { definitionError, formatOf } from './definition-text.js';
import type { PipelineRow, PipelineVersionRow } from './pipelines-store.js';
import type { PipelinesStore } from './pipelines-store-type.js';

/** Where a pipeline's tasks come from: the workspace's task templates and the built-ins. */
export interface TaskCatalogueSource {
  catalogue(workspaceId: string): Promise<Map<string, Task>>;
  /** The StepActions steps may reference by name (decision 035); none when absent. */
  stepActions?(workspaceId: string): Promise<Map<string, StepAction>>;
}

const WORDS: Record<PipelineKind, string> = { pipeline: 'pipeline', template: 'pipeline template' };
const asFormat = (f: string): DefinitionFormat => (f === 'json' ? 'json' : 'yaml');

/** A pipeline or template as lists show it. */
export function toSummary(row: PipelineRow): PipelineSummary {
  return {
    id: row.id,
    kind: row.kind === 'template' ? 'template' : 'pipeline',
    name: row.name,
    description: row.description,
    version: row.currentVersion,
    rollbackPipelineId: row.rollbackPipelineId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** An external pipeline's git source as stored (jsonb) and shown (decision 013), unset fields defaulted. */
export function gitSourceView(stored: object): PipelineSourceView {
  const s = stored as Partial<PipelineSourceView>;
  return {
    kind: 'git',
    url: s.url ?? '',
    revision: s.revision ?? 'main',
    path: s.path ?? '',
    secret: s.secret ?? null,
  };
}

/** The git source of an external pipeline; null for the others. */
function sourceView(raw: unknown): PipelineSourceView | null {
  return raw && typeof raw === 'object' ? gitSourceView(raw) : null;
}

function toVersion(row: PipelineVersionRow): PipelineVersion {
  return {
    version: row.version,
    format: asFormat(row.format),
    definition: row.definition,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A checked definition: the Pipeline and the Tasks it can run (catalogue plus its own). */
export interface CheckedDefinition {
  pipeline: Pipeline;
  tasks: Map<string, Task>;
}

/** Pipelines and pipeline templates: Tekton Pipelines validated, versioned, stored as given. */
export class PipelinesService {
  constructor(
    private readonly store: PipelinesStore,
    private readonly taskSource: TaskCatalogueSource,
  ) {}

  /** Validates a definition against the workspace's catalogue; throws a 400 naming path and rule. */
  async check(workspaceId: string, text: string): Promise<CheckedDefinition> {
    const catalogue = await this.taskSource.catalogue(workspaceId);
    const stepActions = await this.taskSource.stepActions?.(workspaceId);
    const result = checkDefinition(text, catalogue, { stepActions });
    if (!result.ok) throw definitionError(result.errors);
    if (!result.pipeline)
      throw definitionError([
        { path: 'kind', rule: 'no-pipeline', message: 'the definition needs a Tekton Pipeline document' },
      ]);
    const tasks = new Map(catalogue);
    for (const task of result.tasks) tasks.set(task.metadata.name, task);
    return { pipeline: result.pipeline, tasks };
  }

  async list(workspaceId: string, kind: PipelineKind, query: PipelineListQuery) {
    const { rows, total } = await this.store.list(workspaceId, kind, query);
    return { rows: rows.map(toSummary), total };
  }

  async get(workspaceId: string, kind: PipelineKind, id: string): Promise<PipelineDetail> {
    const row = await this.require(workspaceId, kind, id);
    const versions = await this.store.versions(row.id);
    const current = versions.find((v) => v.version === row.currentVersion) ?? versions[0];
    return {
      ...toSummary(row),
      definition: current?.definition ?? '',
      format: asFormat(current?.format ?? 'yaml'),
      versions: versions.map((v) => ({
        version: v.version,
        format: asFormat(v.format),
        createdBy: v.createdBy,
        createdAt: v.createdAt.toISOString(),
      })),
      source: sourceView(row.source),
    };
  }

  async version(
    workspaceId: string,
    kind: PipelineKind,
    id: string,
    version: number,
  ): Promise<PipelineVersion> {
    const row = await this.require(workspaceId, kind, id);
    const found = await this.store.version(row.id, version);
    if (!found) throw new NotFoundError(`Version ${version} of this ${WORDS[kind]} not found`);
    return toVersion(found);
  }

  /** The current definition exactly as it was given. */
  async exportDefinition(workspaceId: string, kind: PipelineKind, id: string) {
    const row = await this.require(workspaceId, kind, id);
    const found = await this.store.version(row.id, row.currentVersion);
    if (!found) throw new NotFoundError(`This ${WORDS[kind]} has no definition`);
    return { name: row.name, text: found.definition, format: asFormat(found.format) };
  }

  async create(
    workspaceId: string,
    kind: PipelineKind,
    input: PipelineCreate,
    createdBy: string | null,
  ): Promise<PipelineDetail> {
    await this.check(workspaceId, input.definition);
    await this.ensureNameFree(workspaceId, kind, input.name);
    if (input.rollbackPipelineId) await this.requireRollback(workspaceId, input.rollbackPipelineId);
    const id = randomUUID();
    try {
      await this.store.create(
        {
          id,
          workspaceId,
          kind,
          name: input.name,
          description: input.description ?? '',
          rollbackPipelineId: input.rollbackPipelineId ?? null,
          createdBy,
        },
        { definition: input.definition, format: formatOf(input.definition), createdBy },
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw this.nameTaken(kind);
      throw err;
    }
    return this.get(workspaceId, kind, id);
  }

  async update(
    workspaceId: string,
    kind: PipelineKind,
    id: string,
    input: PipelineUpdate,
    createdBy: string | null,
  ): Promise<PipelineDetail> {
    const row = await this.require(workspaceId, kind, id);
    if (input.definition !== undefined && row.source)
      throw new ConflictError(
        "This pipeline's definition comes from its git repository: change it there and sync the external pipeline",
      );
    if (input.definition !== undefined) await this.check(workspaceId, input.definition);
    if (input.name !== undefined && input.name.toLowerCase() !== row.name.toLowerCase())
      await this.ensureNameFree(workspaceId, kind, input.name, id);
    if (input.rollbackPipelineId) {
      if (input.rollbackPipelineId === id)
        throw new InputError('rollbackPipelineId: a pipeline cannot roll back to itself');
      await this.requireRollback(workspaceId, input.rollbackPipelineId);
    }
    try {
      await this.store.update(
        id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.rollbackPipelineId !== undefined ? { rollbackPipelineId: input.rollbackPipelineId } : {}),
        },
        input.definition !== undefined
          ? { definition: input.definition, format: formatOf(input.definition), createdBy }
          : undefined,
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw this.nameTaken(kind);
      throw err;
    }
    return this.get(workspaceId, kind, id);
  }

  async remove(workspaceId: string, kind: PipelineKind, id: string): Promise<void> {
    await this.require(workspaceId, kind, id);
    if (!(await this.store.deleteUnlessActive(id)))
      throw new ConflictError(
        `This ${WORDS[kind]} has a run pending or in progress: abort it or wait for it to end`,
      );
  }

  /** A new pipeline from a template's current definition. */
  async instantiate(
    workspaceId: string,
    templateId: string,
    name: string,
    createdBy: string | null,
  ): Promise<PipelineDetail> {
    const template = await this.exportDefinition(workspaceId, 'template', templateId);
    const row = await this.require(workspaceId, 'template', templateId);
    return this.create(
      workspaceId,
      'pipeline',
      { name, description: row.description, definition: template.text },
      createdBy,
    );
  }

  async require(workspaceId: string, kind: PipelineKind, id: string): Promise<PipelineRow> {
    const row = await this.store.get(workspaceId, kind, id);
    if (!row)
      throw new NotFoundError(kind === 'template' ? 'Pipeline template not found' : 'Pipeline not found');
    return row;
  }

  private async requireRollback(workspaceId: string, id: string): Promise<void> {
    if (!(await this.store.get(workspaceId, 'pipeline', id)))
      throw new InputError('rollbackPipelineId: no such pipeline in this workspace', [
        { path: 'body.rollbackPipelineId', message: 'no such pipeline in this workspace' },
      ]);
  }

  private nameTaken(kind: PipelineKind) {
    return new ConflictError(`A ${WORDS[kind]} with this name already exists`);
  }

  private async ensureNameFree(workspaceId: string, kind: PipelineKind, name: string, exceptId?: string) {
    if (await this.store.nameTaken(workspaceId, kind, name, exceptId)) throw this.nameTaken(kind);
  }
}
