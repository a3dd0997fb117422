import type { PipelineDefinitionLoader } from '../pipeline-catalogue/pipeline-definition-loader.js';
import type { SecretReader } from '../secrets/secret-reader.js';
import { describeIssues, loadDefinition, templateCatalogue, type RunDefinition } from './run-definition.js';
import type { RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';

/** Where a run's pipeline comes from: the pipeline catalogue's loader. */
export interface DefinitionSource {
  /** The version parsed and checked, with every Task it may reference; rejects with the reason when it does not validate. */
  load(workspaceId: string, pipelineId: string, version: number): Promise<RunDefinition>;
}

/** Where secret values come from: the secrets feature's reader. */
export interface SecretSource {
  value(workspaceId: string, secretName: string, key: string): Promise<string>;
  values(workspaceId: string, secretName: string): Promise<Record<string, string> | null>;
}

export function catalogueDefinitions(loader: PipelineDefinitionLoader): DefinitionSource {
  return {
    async load(workspaceId, pipelineId, version) {
      const loaded = await loader.load(workspaceId, pipelineId, version);
      return { name: loaded.pipeline.metadata.name, spec: loaded.pipeline.spec, catalogue: loaded.tasks };
    },
  };
}

export function readerSecrets(reader: SecretReader): SecretSource {
  return {
    value: (workspaceId, name, key) => reader.value(workspaceId, name, key),
    values: (workspaceId, name) => reader.values(workspaceId, name),
  };
}

/**
 * For a service built without the catalogue (tests of other features that only create runs):
 * the stored version and the workspace's task templates, parsed here.
 */
export function storedDefinitions(runs: RunStore, tasks: TaskStore): DefinitionSource {
  return {
    async load(workspaceId, pipelineId, version) {
      const text = await runs.definition(pipelineId, version);
      const loaded = loadDefinition(text ?? '', templateCatalogue(await tasks.taskTemplates(workspaceId)));
      if (!loaded.ok) throw new Error(describeIssues(loaded.errors));
      return loaded.definition;
    },
  };
}
