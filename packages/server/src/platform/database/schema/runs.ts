import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, id, parentRef, runTimes, stamped } from './columns.js';
import { workspaceRow } from './identity.js';
import { pipelineRef } from './pipelines.js';

/** Pipeline runs, their task runs and step runs (issue 4). */

/**
 * A pipeline run. The reconcile loop claims runnable rows with FOR UPDATE SKIP LOCKED and holds
 * them with claimed_by/claimed_until, so replicas share the work and a dead one's runs are found.
 */
export const pipelineRuns = pgTable(
  'pipeline_runs',
  {
    ...workspaceRow(),
    pipelineId: pipelineRef(),
    pipelineVersion: integer('pipeline_version').notNull(),
    /** per-pipeline sequence number, shown as #n */
    number: integer('number').notNull(),
    name: text('name').notNull(),
    /** pending | in_progress | succeeded | failed | timed_out | cancelled */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    message: text('message'),
    params: jsonb('params').notNull().default({}),
    /** PipelineRun workspace bindings as given */
    workspaceBindings: jsonb('workspace_bindings').notNull().default([]),
    timeoutMs: integer('timeout_ms').notNull(),
    results: jsonb('results'),
    /** who or what started it: { kind: 'user' | 'webhook' | 'schedule' | 'rerun' | 'rollback', id } */
    trigger: jsonb('trigger').notNull(),
    rerunOf: text('rerun_of'),
    rollbackOf: text('rollback_of'),
    executor: text('executor').notNull().default('local'),
    /** the environment a run targets; its cluster runs the tasks (Kubernetes executor) */
    environmentId: text('environment_id'),
    claimedBy: text('claimed_by'),
    claimedUntil: at('claimed_until'),
    cancelRequestedAt: at('cancel_requested_at'),
    queuedAt: stamped('queued_at'),
    ...runTimes(),
  },
  (t) => [
    uniqueIndex('pipeline_runs_pipeline_number').on(t.pipelineId, t.number),
    index('pipeline_runs_ws_queued').on(t.workspaceId, t.queuedAt),
    index('pipeline_runs_status').on(t.status, t.queuedAt),
  ],
);

export const taskRuns = pgTable(
  'task_runs',
  {
    id: id(),
    runId: parentRef('run_id', () => pipelineRuns.id),
    /** the pipeline task's name; `<task>-<i>` for a matrix combination */
    name: text('name').notNull(),
    pipelineTask: text('pipeline_task').notNull(),
    isFinally: boolean('is_finally').notNull().default(false),
    /** pending | running | succeeded | failed | skipped | timed_out | cancelled */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    attempt: integer('attempt').notNull().default(0),
    params: jsonb('params'),
    results: jsonb('results'),
    ...runTimes(),
  },
  (t) => [uniqueIndex('task_runs_run_name').on(t.runId, t.name)],
);

export const stepRuns = pgTable(
  'step_runs',
  {
    taskRunId: parentRef('task_run_id', () => taskRuns.id),
    idx: integer('idx').notNull(),
    name: text('name').notNull(),
    image: text('image').notNull(),
    /** pending | running | succeeded | failed | skipped | timed_out | cancelled */
    status: text('status').notNull().default('pending'),
    exitCode: integer('exit_code'),
    reason: text('reason'),
    ...runTimes(),
  },
  (t) => [primaryKey({ columns: [t.taskRunId, t.idx] })],
);
