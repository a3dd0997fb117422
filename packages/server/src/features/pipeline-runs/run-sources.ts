import type { PipelineDefinitionLoader } from '../pipeline-catalogue/pipeline-definition-loader.js';
import type { SecretReader } from '../secrets/secret-reader.js';
import {
  describeIssues,
  loadDefinition,
  templateCatalogue,
  templateStepActions,
  type RunDefinition,
} from './run-definition.js';
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
  /**
   * Config maps, carried beside the secrets: the engine hands its drivers `secrets` and nothing
   * else of the kind, so this is how config maps reach the task runner (see `configMapsOf`).
   */
  configMaps?: ConfigMapSource;
}

/** Where config map data comes from: the config maps feature's reader. */
export interface ConfigMapSource {
  /** Every key of the workspace's config map, or null when there is no such config map. */
  data(workspaceId: string, name: string): Promise<Record<string, string> | null>;
}

/** No config maps at all: every lookup finds none. */
export const NO_CONFIG_MAPS: ConfigMapSource = { data: async () => null };

/** The secrets, with the config maps riding along (see SecretSource.configMaps). */
export function withConfigMaps(secrets: SecretSource, configMaps: ConfigMapSource): SecretSource {
  return {
    value: (workspaceId, name, key) => secrets.value(workspaceId, name, key),
    values: (workspaceId, name) => secrets.values(workspaceId, name),
    configMaps,
  };
}

/** The config maps a run reads: given on their own, or carried by the secrets. */
export function configMapsOf(deps: { secrets: SecretSource; configMaps?: ConfigMapSource }): ConfigMapSource {
  return deps.configMaps ?? deps.secrets.configMaps ?? NO_CONFIG_MAPS;
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
      const templates = await tasks.taskTemplates(workspaceId);
      const loaded = loadDefinition(text ?? '', templateCatalogue(templates), templateStepActions(templates));
      if (!loaded.ok) throw new Error(describeIssues(loaded.errors));
      return loaded.definition;
    },
  };
}
