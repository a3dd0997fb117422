import { randomUUID } from 'node:crypto';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { decodeChunk, encodeChunk } from './logs/chunk-codec.js';
import type { LogChunk } from './logs/log-hub.js';
import { LOG_CHANNEL } from './logs/log-publisher.js';
import { logChunks, stepRuns, taskRuns, taskTemplates } from '../../platform/database/schema.js';

export type TaskRunRow = typeof taskRuns.$inferSelect;
export type StepRunRow = typeof stepRuns.$inferSelect;

/** One stored log line (the jsonb shape of log_chunks.lines). */
export interface StoredLine {
  seq: number;
  /** epoch ms */
  at: number;
  stream: string;
  step: string;
  text: string;
}

export interface TaskRunStart {
  runId: string;
  name: string;
  pipelineTask: string;
  isFinally: boolean;
  status: string;
  reason?: string | null;
  params?: unknown;
}

/** SQL of task runs, step runs, log chunks, and what a run reads from its workspace. */
export class TaskStore {
  constructor(private readonly db: AppDb) {}

  /** Creates or replaces the task run named `name` of a run; answers its id. */
  async upsertTaskRun(start: TaskRunStart): Promise<string> {
    const running = start.status === 'running';
    const finished = !running && start.status !== 'pending';
    const [row] = await this.db
      .insert(taskRuns)
      .values({
        id: randomUUID(),
        runId: start.runId,
        name: start.name,
        pipelineTask: start.pipelineTask,
        isFinally: start.isFinally,
        status: start.status,
        reason: start.reason ?? null,
        attempt: running ? 1 : 0,
        params: start.params ?? null,
        startedAt: running ? sql`now()` : null,
        finishedAt: finished ? sql`now()` : null,
      })
      .onConflictDoUpdate({
        target: [taskRuns.runId, taskRuns.name],
        set: {
          status: start.status,
          reason: start.reason ?? null,
          attempt: running ? sql`${taskRuns.attempt} + 1` : taskRuns.attempt,
          startedAt: running ? sql`now()` : taskRuns.startedAt,
        },
      })
      .returning({ id: taskRuns.id });
    return row!.id;
  }

  async finishTaskRun(
    id: string,
    end: { status: string; reason: string; results: Record<string, string>; attempts: number },
  ): Promise<void> {
    await this.db
      .update(taskRuns)
      .set({ status: end.status, reason: end.reason || null, results: end.results, finishedAt: sql`now()` })
      .where(eq(taskRuns.id, id));
  }

  async initSteps(taskRunId: string, steps: { name: string; image: string }[]): Promise<void> {
    if (steps.length === 0) return;
    await this.db.delete(stepRuns).where(eq(stepRuns.taskRunId, taskRunId));
    await this.db
      .insert(stepRuns)
      .values(steps.map((s, idx) => ({ taskRunId, idx, name: s.name, image: s.image })));
  }

  async stepState(taskRunId: string, name: string, state: string): Promise<void> {
    await this.db
      .update(stepRuns)
      .set({
        status: state,
        ...(state === 'running' ? { startedAt: sql`now()` } : {}),
      })
      .where(and(eq(stepRuns.taskRunId, taskRunId), eq(stepRuns.name, name)));
  }

  async finishStep(
    taskRunId: string,
    step: {
      name: string;
      status: string;
      exitCode: number | null;
      reason: string;
      startedAt: Date | null;
      finishedAt: Date | null;
    },
  ): Promise<void> {
    await this.db
      .update(stepRuns)
      .set({
        status: step.status,
        exitCode: step.exitCode,
        reason: step.reason || null,
        startedAt: step.startedAt,
        finishedAt: step.finishedAt,
      })
      .where(and(eq(stepRuns.taskRunId, taskRunId), eq(stepRuns.name, step.name)));
  }

  async taskRuns(runId: string): Promise<TaskRunRow[]> {
    return this.db
      .select()
      .from(taskRuns)
      .where(eq(taskRuns.runId, runId))
      .orderBy(sql`${taskRuns.startedAt} ASC NULLS LAST`, asc(taskRuns.name));
  }

  async stepRuns(taskRunIds: string[]): Promise<StepRunRow[]> {
    if (taskRunIds.length === 0) return [];
    return this.db
      .select()
      .from(stepRuns)
      .where(inArray(stepRuns.taskRunId, taskRunIds))
      .orderBy(asc(stepRuns.idx));
  }

  /** Marks every task run still running as failed (the run's executor is gone). */
  async failRunning(runId: string, reason: string): Promise<number> {
    const rows = await this.db
      .update(taskRuns)
      .set({ status: 'failed', reason, finishedAt: sql`now()` })
      .where(and(eq(taskRuns.runId, runId), inArray(taskRuns.status, ['running', 'pending'])))
      .returning({ id: taskRuns.id });
    if (rows.length > 0)
      await this.db
        .update(stepRuns)
        .set({ status: 'failed', reason })
        .where(
          and(
            inArray(
              stepRuns.taskRunId,
              rows.map((r) => r.id),
            ),
            inArray(stepRuns.status, ['running', 'pending']),
          ),
        );
    return rows.length;
  }

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
        VALUES (${runId}, ${taskRunId}, ${values.seqFrom}, ${values.seqTo}, ${JSON.stringify(values.lines)}::jsonb)
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
    return rows.map((r) => ({ id: r.id, runId, taskRunId: r.taskRunId, lines: decodeChunk(r.lines) }));
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
      for (const r of rows) yield { ...r, lines: decodeChunk(r.lines) };
      if (rows.length < pageSize) return;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Task templates a pipeline of the workspace may reference: built-ins, then the workspace's own. */
  async taskTemplates(workspaceId: string): Promise<{ name: string; definition: string }[]> {
    return this.db
      .select({ name: taskTemplates.name, definition: taskTemplates.definition })
      .from(taskTemplates)
      .where(sql`${taskTemplates.workspaceId} = ${workspaceId} OR ${taskTemplates.workspaceId} IS NULL`)
      .orderBy(asc(sql`${taskTemplates.workspaceId} IS NOT NULL`));
  }
}
