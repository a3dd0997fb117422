import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../../../platform/database/database.js';
import { logChunks } from '../../../platform/database/schema.js';
import { encodeChunk, toColumns, type StoredLine } from './chunk-codec.js';
import type { LogChunk } from './log-hub.js';

/** The NOTIFY channel of run logs (PostgreSQL): chunk and task-end announcements to other processes. */
export const LOG_CHANNEL = 'slipway_run_logs';

/** SQL of log chunks: appended one at a time, read back by run (sockets) or by task run (text, search). */
export class LogStore {
  constructor(private readonly db: AppDb) {}

  /**
   * Stores one chunk and answers its id. With `notify`, the same statement sends a NOTIFY on the
   * log channel with `notify` + the id, delivered when it commits (PostgreSQL only).
   */
  async appendLog(runId: string, taskRunId: string, lines: StoredLine[], notify?: string): Promise<number> {
    const values = {
      runId,
      taskRunId,
      seqFrom: lines[0]?.seq ?? 0,
      seqTo: lines[lines.length - 1]?.seq ?? 0,
      lines: encodeChunk(lines),
    };
    if (notify === undefined) {
      const [row] = await this.db.insert(logChunks).values(values).returning({ id: logChunks.id });
      return row!.id;
    }
    const result = await this.db.execute(sql`WITH c AS (
        INSERT INTO log_chunks (run_id, task_run_id, seq_from, seq_to, lines)
        VALUES (${runId}, ${taskRunId}, ${values.seqFrom}, ${values.seqTo}, ${JSON.stringify(values.lines)}::json)
        RETURNING id)
      SELECT id, pg_notify(${LOG_CHANNEL}, ${notify} || id) FROM c`);
    return Number((result as unknown as { rows: { id: string | number }[] }).rows[0]!.id);
  }

  async notify(payload: string): Promise<void> {
    await this.db.execute(sql`SELECT pg_notify(${LOG_CHANNEL}, ${payload})`);
  }

  /** A run's chunks with an id above `afterId`, in id order. */
  async chunksAfter(runId: string, afterId: number, limit: number): Promise<LogChunk[]> {
    const rows = await this.db
      .select({ id: logChunks.id, taskRunId: logChunks.taskRunId, lines: logChunks.lines })
      .from(logChunks)
      .where(and(eq(logChunks.runId, runId), gt(logChunks.id, afterId)))
      .orderBy(asc(logChunks.id))
      .limit(limit);
    return rows.map((r) => ({ id: r.id, runId, taskRunId: r.taskRunId, columns: toColumns(r.lines) }));
  }

  /** Chunks of the given task runs, in id order, paged by id (bounded memory for big logs). */
  async *chunksOf(taskRunIds: string[], pageSize = 50): AsyncGenerator<LogChunk> {
    if (taskRunIds.length === 0) return;
    let after = 0;
    for (;;) {
      const rows = await this.db
        .select({
          id: logChunks.id,
          runId: logChunks.runId,
          taskRunId: logChunks.taskRunId,
          lines: logChunks.lines,
        })
        .from(logChunks)
        .where(and(inArray(logChunks.taskRunId, taskRunIds), gt(logChunks.id, after)))
        .orderBy(asc(logChunks.id))
        .limit(pageSize);
      for (const r of rows)
        yield { id: r.id, runId: r.runId, taskRunId: r.taskRunId, columns: toColumns(r.lines) };
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** The last log line stored of a task run (its seq), 0 when none: lines up to it are not written again. */
  async lastLogSeq(taskRunId: string): Promise<number> {
    const [row] = await this.db
      .select({ seq: sql<number | null>`max(${logChunks.seqTo})` })
      .from(logChunks)
      .where(eq(logChunks.taskRunId, taskRunId));
    return Number(row?.seq ?? 0);
  }
}
