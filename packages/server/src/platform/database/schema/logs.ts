import { bigserial, index, integer, json, pgTable } from 'drizzle-orm/pg-core';
import { created, parentRef } from './columns.js';
import { pipelineRuns, taskRuns } from './runs.js';

/** Run logs (issue 4). */

/**
 * Log lines, stored durably in chunks: `lines` is a JSON array of
 * { seq, at, stream, step, text } in seq order; seq_from/seq_to bound the chunk.
 */
export const logChunks = pgTable(
  'log_chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: parentRef('run_id', () => pipelineRuns.id),
    taskRunId: parentRef('task_run_id', () => taskRuns.id),
    seqFrom: integer('seq_from').notNull(),
    seqTo: integer('seq_to').notNull(),
    // json, not jsonb: written once and read back whole, never queried inside; json keeps the
    // text as written, which PostgreSQL takes in and gives back at about twice jsonb's speed
    lines: json('lines').notNull(),
    createdAt: created(),
  },
  (t) => [index('log_chunks_task_seq').on(t.taskRunId, t.seqFrom), index('log_chunks_run').on(t.runId)],
);
