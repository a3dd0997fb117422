import { bigserial, index, integer, json, pgTable, text } from 'drizzle-orm/pg-core';
import { created } from './columns.js';
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
    runId: text('run_id')
      .notNull()
      .references(() => pipelineRuns.id, { onDelete: 'cascade' }),
    taskRunId: text('task_run_id')
      .notNull()
      .references(() => taskRuns.id, { onDelete: 'cascade' }),
    seqFrom: integer('seq_from').notNull(),
    seqTo: integer('seq_to').notNull(),
    // json, not jsonb: written once and read back whole, never queried inside; json keeps the
    // text as written, which PostgreSQL takes in and gives back at about twice jsonb's speed
    lines: json('lines').notNull(),
    createdAt: created(),
  },
  (t) => [index('log_chunks_task_seq').on(t.taskRunId, t.seqFrom), index('log_chunks_run').on(t.runId)],
);
