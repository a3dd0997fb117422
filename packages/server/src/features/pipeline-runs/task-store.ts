import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../../platform/database/database.js';
import { stepRuns, taskRuns, taskTemplates } from '../../platform/database/schema.js';
import type { ParamValue } from '../pipelines/definition/model.js';
import { encodeChunk, type StoredLine } from './logs/chunk-codec.js';
import { LOG_CHANNEL } from './logs/log-store.js';

export type TaskRunRow = typeof taskRuns.$inferSelect;
export type StepRunRow = typeof stepRuns.$inferSelect;

/** How a step ended, as the executor reports it. */
export interface StepEnd {
  name: string;
  status: string;
  exitCode: number | null;
  reason: string;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A step row as a task run starts. */
export interface StepRow {
  name: string;
  image: string;
}

/** The end of one task run, with its last log lines (maybe none). */
export interface TaskFinish {
  taskRunId: string;
  status: string;
  reason: string;
  /** Array and object results are arrays and objects (typedResults). */
  results: Record<string, ParamValue>;
  steps: StepEnd[];
  lines: StoredLine[];
}

export type TaskRunBegin = Omit<TaskRunStart, 'status' | 'reason'>;

interface PendingStart {
  id: string;
  start: TaskRunBegin;
  steps: StepRow[];
  resolve: (row: { id: string; inserted: boolean }) => void;
  reject: (error: unknown) => void;
}

/** At most this many task runs are started in one statement. */
const BATCH_LIMIT = 200;
/**
 * The first two statements of a burst of starts take at most this many: a fan-out's first tasks
 * get their rows (and their steps reach the spawner) while the rest of the burst is written, which
 * on PGlite holds the server's thread for 15–20 ms per hundred rows.
 */
const FIRST_BATCHES_LIMIT = 16;

export interface TaskRunStart {
  runId: string;
  name: string;
  pipelineTask: string;
  isFinally: boolean;
  status: string;
  reason?: string | null;
  params?: unknown;
}

/**
 * SQL of task runs and step runs, and what a run reads from its workspace. A task's end writes its
 * last log chunk in the same statement; the other log chunk SQL is LogStore's.
 */
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

  /**
   * Starts the task run `id` (running, attempt 1) and inserts its step rows. When the run already
   * had a task run of that name (a retried start), that row is updated instead, keeps its own id,
   * and no step row is written: `inserted` is false and the caller writes the steps with
   * `initSteps`. Starts asked for while one is being written go together in the next statement
   * (a fan-out of a hundred tasks is two statements, not a hundred).
   */
  startTaskRun(
    id: string,
    start: TaskRunBegin,
    steps: StepRow[],
  ): Promise<{ id: string; inserted: boolean }> {
    return new Promise((resolve, reject) => {
      this.starts.push({ id, start, steps, resolve, reject });
      if (!this.starting) void this.drainStarts();
    });
  }

  private readonly starts: PendingStart[] = [];
  private starting = false;

  private async drainStarts(): Promise<void> {
    this.starting = true;
    for (let statement = 0; this.starts.length > 0; statement += 1) {
      const batch = this.starts.splice(0, statement < 2 ? FIRST_BATCHES_LIMIT : BATCH_LIMIT);
      try {
        const rows = await this.startBatch(batch);
        for (const item of batch) {
          const row = rows.get(`${item.start.runId} ${item.start.name}`);
          if (row) item.resolve(row);
          else item.reject(new Error(`task run "${item.start.name}" was not written`));
        }
      } catch (error) {
        batch.forEach((item) => item.reject(error));
      }
    }
    this.starting = false;
  }

  private async startBatch(batch: PendingStart[]): Promise<Map<string, { id: string; inserted: boolean }>> {
    const tasks = batch.map(
      ({ id, start }) =>
        sql`(${id}::text, ${start.runId}::text, ${start.name}::text, ${start.pipelineTask}::text,
          ${start.isFinally}::boolean, ${start.params === undefined ? null : JSON.stringify(start.params)}::jsonb)`,
    );
    const steps = batch.flatMap(({ start, steps: rows }) =>
      rows.map(
        (step, idx) =>
          sql`(${start.runId}::text, ${start.name}::text, ${idx}::int, ${step.name}::text, ${step.image}::text)`,
      ),
    );
    const stepInsert =
      steps.length === 0
        ? sql.empty()
        : sql`, s AS (INSERT INTO step_runs (task_run_id, idx, name, image)
          SELECT t.id, w.idx, w.name, w.image FROM t
          JOIN (VALUES ${sql.join(steps, sql`, `)}) AS w(run_id, task, idx, name, image)
            ON w.run_id = t.run_id AND w.task = t.name
          WHERE t.inserted)`;
    const result = await this.db.execute(sql`WITH t AS (
        INSERT INTO task_runs (id, run_id, name, pipeline_task, is_finally, status, attempt, params, started_at)
        SELECT v.id, v.run_id, v.name, v.pipeline_task, v.is_finally, 'running', 1, v.params, now()
        FROM (VALUES ${sql.join(tasks, sql`, `)}) AS v(id, run_id, name, pipeline_task, is_finally, params)
        ON CONFLICT (run_id, name) DO UPDATE SET status = 'running', reason = NULL,
          attempt = task_runs.attempt + 1, started_at = now()
        RETURNING id, run_id, name, (xmax = 0) AS inserted)${stepInsert}
      SELECT id, run_id, name, inserted FROM t`);
    const rows = (
      result as unknown as {
        rows: { id: string; run_id: string; name: string; inserted: boolean | string }[];
      }
    ).rows;
    return new Map(
      rows.map((r) => [
        `${r.run_id} ${r.name}`,
        { id: r.id, inserted: r.inserted === true || r.inserted === 't' },
      ]),
    );
  }

  /**
   * The end of task runs of one run in one statement: their steps' outcomes, their status, and
   * their last log chunks (answered as task run id → chunk id). With PostgreSQL, `notify` sends
   * each chunk's NOTIFY (`chunk` + id) and each task's end NOTIFY (`end` + task run id) from the
   * same statement, delivered at commit, chunks first.
   */
  async finishTasks(
    runId: string,
    ends: TaskFinish[],
    notify?: { chunk: string; end: string },
  ): Promise<Map<string, number>> {
    const parts = [
      sql`t AS (UPDATE task_runs SET status = v.status, reason = v.reason, results = v.results, finished_at = now()
        FROM (VALUES ${sql.join(
          ends.map(
            (end) =>
              sql`(${end.taskRunId}::text, ${end.status}::text, ${end.reason || null}::text,
                ${JSON.stringify(end.results)}::jsonb)`,
          ),
          sql`, `,
        )}) AS v(id, status, reason, results)
        WHERE task_runs.id = v.id)`,
    ];
    const steps = ends.flatMap((end) =>
      end.steps.map(
        (step) =>
          sql`(${end.taskRunId}::text, ${step.name}::text, ${step.status}::text, ${step.exitCode}::int,
            ${step.reason || null}::text, ${step.startedAt?.toISOString() ?? null}::timestamptz,
            ${step.finishedAt?.toISOString() ?? null}::timestamptz)`,
      ),
    );
    if (steps.length > 0) {
      parts.push(sql`s AS (UPDATE step_runs SET status = w.status, exit_code = w.exit_code, reason = w.reason,
          started_at = w.started_at, finished_at = w.finished_at
        FROM (VALUES ${sql.join(steps, sql`, `)})
          AS w(task_run_id, name, status, exit_code, reason, started_at, finished_at)
        WHERE step_runs.task_run_id = w.task_run_id AND step_runs.name = w.name)`);
    }
    const chunks = ends.filter((end) => end.lines.length > 0);
    if (chunks.length > 0) {
      parts.push(sql`c AS (INSERT INTO log_chunks (run_id, task_run_id, seq_from, seq_to, lines)
        VALUES ${sql.join(
          chunks.map(
            ({ taskRunId, lines }) =>
              sql`(${runId}, ${taskRunId}, ${lines[0]!.seq}, ${lines[lines.length - 1]!.seq},
                ${JSON.stringify(encodeChunk(lines))}::json)`,
          ),
          sql`, `,
        )} RETURNING id, task_run_id)`);
    }
    const selects: SQL[] = [];
    if (chunks.length > 0)
      selects.push(
        sql`SELECT id, task_run_id, ${notify ? sql`pg_notify(${LOG_CHANNEL}, ${notify.chunk} || id)` : sql`NULL`} AS n
          FROM c`,
      );
    if (notify)
      selects.push(
        sql`SELECT NULL::bigint AS id, e.id AS task_run_id, pg_notify(${LOG_CHANNEL}, ${notify.end} || e.id) FROM (VALUES ${sql.join(
          ends.map((end) => sql`(${end.taskRunId}::text)`),
          sql`, `,
        )}) AS e(id)`,
      );
    if (selects.length === 0) selects.push(sql`SELECT NULL::bigint AS id, NULL::text AS task_run_id`);
    const result = await this.db.execute(
      sql`WITH ${sql.join(parts, sql`, `)} ${sql.join(selects, sql` UNION ALL `)}`,
    );
    const rows = (result as unknown as { rows: { id: string | number | null; task_run_id: string | null }[] })
      .rows;
    const ids = new Map<string, number>();
    for (const row of rows) if (row.id !== null && row.task_run_id) ids.set(row.task_run_id, Number(row.id));
    return ids;
  }

  async finishTaskRun(
    id: string,
    end: { status: string; reason: string; results: Record<string, ParamValue>; attempts: number },
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

  async finishStep(taskRunId: string, step: StepEnd): Promise<void> {
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

  /** What the log sockets need of a run's task runs (they ask often): no params or results. */
  async taskRunNames(
    runId: string,
  ): Promise<{ id: string; name: string; pipelineTask: string; status: string }[]> {
    return this.db
      .select({
        id: taskRuns.id,
        name: taskRuns.name,
        pipelineTask: taskRuns.pipelineTask,
        status: taskRuns.status,
      })
      .from(taskRuns)
      .where(eq(taskRuns.runId, runId));
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

  /** Task templates a pipeline of the workspace may reference: built-ins, then the workspace's own. */
  async taskTemplates(workspaceId: string): Promise<{ name: string; definition: string }[]> {
    return this.db
      .select({ name: taskTemplates.name, definition: taskTemplates.definition })
      .from(taskTemplates)
      .where(sql`${taskTemplates.workspaceId} = ${workspaceId} OR ${taskTemplates.workspaceId} IS NULL`)
      .orderBy(asc(sql`${taskTemplates.workspaceId} IS NOT NULL`));
  }
}
