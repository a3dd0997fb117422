import { createHash } from 'node:crypto';
import type { DefinitionFormat } from '@slipway/contracts';
import { Lru } from '../../platform/cache/lru.js';
import { checkDefinition, type Pipeline, type Task } from '../pipelines/definition/index.js';
import { InputError, NotFoundError } from '../../platform/errors.js';
import type { PipelinesStore } from './pipelines-store-type.js';
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

interface Checked {
  text: string;
  format: DefinitionFormat;
  pipeline: Pipeline;
  tasks: Task[];
}

/** The catalogue's contents, as a key: a version checked against another catalogue is checked again. */
function fingerprint(catalogue: Map<string, unknown>): string {
  const hash = createHash('sha256');
  for (const [name, task] of catalogue)
    hash.update(name).update('\0').update(JSON.stringify(task)).update('\0');
  return hash.digest('base64url');
}

/**
 * What the run engine uses to read a pipeline: the given version (default: current) parsed and
 * checked against today's catalogue. Throws NotFoundError for an unknown id, version or workspace.
 * A stored version never changes, so a version checked against the same catalogue is not parsed
 * and checked again (a 100-task pipeline costs tens of milliseconds of the server's thread); each
 * caller gets its own copy.
 */
export class PipelineDefinitionLoader {
  private readonly checked = new Lru<string, Checked>(64);

  constructor(
    private readonly store: PipelinesStore,
    private readonly taskSource: TaskCatalogueSource,
  ) {}

  async load(workspaceId: string, pipelineId: string, version?: number): Promise<LoadedPipeline> {
    const row = await this.store.get(workspaceId, 'pipeline', pipelineId);
    if (!row) throw new NotFoundError('Pipeline not found');
    const wanted = version ?? row.currentVersion;
    const catalogue = await this.taskSource.catalogue(workspaceId);
    const stepActions = await this.taskSource.stepActions?.(workspaceId);
    const key = `${row.id} ${wanted} ${fingerprint(catalogue)} ${fingerprint(stepActions ?? new Map())}`;
    let checked = this.checked.get(key);
    if (!checked) {
      const stored = await this.store.version(row.id, wanted);
      if (!stored) throw new NotFoundError(`Version ${wanted} of this pipeline not found`);
      const result = checkDefinition(stored.definition, catalogue, { stepActions });
      if (!result.ok || !result.pipeline) {
        const first = result.ok ? undefined : result.errors[0];
        throw new InputError(
          `Version ${wanted} of pipeline "${row.name}" no longer validates${first ? `: ${first.path}: ${first.message}` : ''}`,
        );
      }
      checked = {
        text: stored.definition,
        format: stored.format === 'json' ? 'json' : 'yaml',
        pipeline: result.pipeline,
        tasks: result.tasks,
      };
      this.checked.set(key, checked);
    }
    const tasks = new Map(catalogue);
    for (const task of structuredClone(checked.tasks)) tasks.set(task.metadata.name, task);
    return {
      pipelineId: row.id,
      name: row.name,
      version: wanted,
      rollbackPipelineId: row.rollbackPipelineId,
      text: checked.text,
      format: checked.format,
      pipeline: structuredClone(checked.pipeline),
      tasks,
    };
  }
}
