import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { anyRow } from '../../platform/database/rows.js';
import { environments, pipelineRuns, pipelines, pipelineVersions } from '../../platform/database/schema.js';
import { storedDefinitions, type DefinitionSource } from './run-sources.js';
import type { RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';

/**
 * The kind of pipeline record that holds the pipeline a run document gave (an inline
 * pipelineSpec, the stream's Pipeline, a TaskRun's Task): one per run, named as the run, never
 * listed with the workspace's pipelines or templates (decision 036).
 */
export const ADHOC_PIPELINE_KIND = 'adhoc';

/** SQL of runs created from Tekton documents: their names and their ad-hoc pipelines. */
export class RunDocumentStore {
  constructor(private readonly db: AppDb) {}

  /** A run of the workspace already has this name (Kubernetes: names are unique per kind). */
  async runNameTaken(workspaceId: string, name: string): Promise<boolean> {
    return anyRow(this.db, pipelineRuns, [
      eq(pipelineRuns.workspaceId, workspaceId),
      eq(pipelineRuns.name, name),
    ]);
  }

  /** The workspace's pipeline (not a template, not an ad-hoc one) of this name. */
  async pipelineByName(workspaceId: string, name: string): Promise<{ id: string } | undefined> {
    const [row] = await this.db
      .select({ id: pipelines.id })
      .from(pipelines)
      .where(
        and(eq(pipelines.workspaceId, workspaceId), eq(pipelines.kind, 'pipeline'), eq(pipelines.name, name)),
      );
    return row;
  }

  /** The workspace's environments whose Kubernetes namespace is this one (a document's metadata.namespace). */
  async environmentsInNamespace(
    workspaceId: string,
    namespace: string,
  ): Promise<{ id: string; namespace: string | null }[]> {
    return this.db
      .select({ id: environments.id, namespace: environments.namespace })
      .from(environments)
      .where(and(eq(environments.workspaceId, workspaceId), eq(environments.namespace, namespace)));
  }

  /** The Kubernetes namespace of an environment of the workspace (null: none set, undefined: no such environment). */
  async environmentNamespace(workspaceId: string, id: string): Promise<string | null | undefined> {
    const [row] = await this.db
      .select({ namespace: environments.namespace })
      .from(environments)
      .where(and(eq(environments.workspaceId, workspaceId), eq(environments.id, id)));
    return row ? row.namespace : undefined;
  }

  /**
   * The environment's cluster runs its runs' tasks (bound to a cluster and a namespace, and its task
   * runner not `server`): only there does a task's service account mean something.
   */
  async clusterRunsTasks(environmentId: string): Promise<boolean> {
    const [row] = await this.db
      .select({
        clusterId: environments.clusterId,
        namespace: environments.namespace,
        taskRunner: environments.taskRunner,
      })
      .from(environments)
      .where(eq(environments.id, environmentId));
    return Boolean(row?.clusterId && row.namespace && row.taskRunner !== 'server');
  }

  /** Records an ad-hoc pipeline with its one version; a unique violation means the name is taken. */
  async createAdhoc(workspaceId: string, name: string, definition: string, createdBy: string | null) {
    const id = randomUUID();
    await this.db.transaction(async (tx) => {
      await tx.insert(pipelines).values({ id, workspaceId, kind: ADHOC_PIPELINE_KIND, name, createdBy });
      await tx
        .insert(pipelineVersions)
        .values({ pipelineId: id, version: 1, definition, format: 'yaml', createdBy });
    });
    return { id, name, version: 1 };
  }

  /** Removes an ad-hoc pipeline whose run could not be created. */
  async removeAdhoc(id: string): Promise<void> {
    await this.db.delete(pipelines).where(and(eq(pipelines.id, id), eq(pipelines.kind, ADHOC_PIPELINE_KIND)));
  }
}

/**
 * The definitions a run reads: an ad-hoc pipeline's version is the text recorded with its run,
 * read against the workspace's task templates; every other pipeline comes from `base` (the
 * pipeline catalogue's loader, which knows only the workspace's pipelines).
 */
export function withAdhocPipelines(
  base: DefinitionSource,
  runs: RunStore,
  tasks: TaskStore,
): DefinitionSource {
  const recorded = storedDefinitions(runs, tasks);
  return {
    async load(workspaceId, pipelineId, version) {
      const row = await runs.pipeline(workspaceId, pipelineId);
      return row?.kind === ADHOC_PIPELINE_KIND
        ? recorded.load(workspaceId, pipelineId, version)
        : base.load(workspaceId, pipelineId, version);
    },
  };
}
