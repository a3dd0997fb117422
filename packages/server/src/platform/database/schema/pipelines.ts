import { boolean, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, created, description, id, parentRef, timestamps } from './columns.js';
import { nameUniqueInWorkspace, workspaceRow, workspaces } from './identity.js';

/** Pipelines, their versions and task templates (issue 4). */

/** The pipeline a row belongs to (`pipeline_id`): deleting the pipeline deletes the row. */
export function pipelineRef() {
  return parentRef('pipeline_id', () => pipelines.id);
}

/** Pipelines and pipeline templates: Tekton Pipeline documents, kept with every version. */
export const pipelines = pgTable(
  'pipelines',
  {
    ...workspaceRow(),
    /** pipeline | template */
    kind: text('kind').notNull().default('pipeline'),
    name: text('name').notNull(),
    description: description(),
    currentVersion: integer('current_version').notNull().default(1),
    /** the pipeline that "run rollback" starts */
    rollbackPipelineId: text('rollback_pipeline_id'),
    /** an admin's cap on this pipeline's runs in progress at once (null: the default, 2) */
    maxRunsInProgress: integer('max_runs_in_progress'),
    /**
     * An external pipeline's source: { kind: 'git', url, revision, path, secret? } — its
     * definition is read from that repository; null for a pipeline defined in Slipway.
     */
    source: jsonb('source'),
    lastSyncedAt: at('last_synced_at'),
    syncError: text('sync_error'),
    createdBy: text('created_by'),
    ...timestamps(),
  },
  (t) => [uniqueIndex('pipelines_ws_kind_name').on(t.workspaceId, t.kind, t.name)],
);

export const pipelineVersions = pgTable(
  'pipeline_versions',
  {
    pipelineId: pipelineRef(),
    version: integer('version').notNull(),
    /** the document exactly as given (exported unchanged) */
    definition: text('definition').notNull(),
    /** yaml | json */
    format: text('format').notNull(),
    createdBy: text('created_by'),
    createdAt: created(),
  },
  (t) => [primaryKey({ columns: [t.pipelineId, t.version] })],
);

/** Task templates: Tekton Task documents; workspace_id null for the built-in ones. */
export const taskTemplates = pgTable(
  'task_templates',
  {
    id: id(),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: description(),
    version: integer('version').notNull().default(1),
    definition: text('definition').notNull(),
    format: text('format').notNull(),
    builtIn: boolean('built_in').notNull().default(false),
    ...timestamps(),
  },
  nameUniqueInWorkspace('task_templates'),
);
