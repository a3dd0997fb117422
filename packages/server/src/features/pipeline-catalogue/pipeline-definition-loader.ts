import type { DefinitionFormat } from '@slipway/contracts';
import { checkDefinition, type Pipeline, type Task } from '../pipelines/definition/index.js';
import { InputError, NotFoundError } from '../../platform/errors.js';
import type { PipelinesStore } from './pipelines-store.js';
import type { TaskCatalogueSource } from './pipelines-service.js';

/** A stored pipeline version, parsed, with every Task its pipeline tasks may reference. */
export interface LoadedPipeline {
  pipelineId: string;
  name: string;
  version: number;
  rollbackPipelineId: string | null;
  text: string;
  format: DefinitionFormat;
  pipeline: Pipeline;
  /** the workspace's task templates and built-ins, overridden by the Tasks of the same text */
  tasks: Map<string, Task>;
}

/**
 * What the run engine uses to read a pipeline: the given version (default: current) parsed and
 * checked against today's catalogue. Throws NotFoundError for an unknown id, version or workspace.
 */
export class PipelineDefinitionLoader {
  constructor(
    private readonly store: PipelinesStore,
    private readonly taskSource: TaskCatalogueSource,
  ) {}

  async load(workspaceId: string, pipelineId: string, version?: number): Promise<LoadedPipeline> {
    const row = await this.store.get(workspaceId, 'pipeline', pipelineId);
    if (!row) throw new NotFoundError('Pipeline not found');
    const wanted = version ?? row.currentVersion;
    const stored = await this.store.version(row.id, wanted);
    if (!stored) throw new NotFoundError(`Version ${wanted} of this pipeline not found`);
    const catalogue = await this.taskSource.catalogue(workspaceId);
    const checked = checkDefinition(stored.definition, catalogue);
    if (!checked.ok || !checked.pipeline) {
      const first = checked.ok ? undefined : checked.errors[0];
      throw new InputError(
        `Version ${wanted} of pipeline "${row.name}" no longer validates${first ? `: ${first.path}: ${first.message}` : ''}`,
      );
    }
    const tasks = new Map(catalogue);
    for (const task of checked.tasks) tasks.set(task.metadata.name, task);
    return {
      pipelineId: row.id,
      name: row.name,
      version: wanted,
      rollbackPipelineId: row.rollbackPipelineId,
      text: stored.definition,
      format: stored.format === 'json' ? 'json' : 'yaml',
      pipeline: checked.pipeline,
      tasks,
    };
  }
}
