import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PipelineRunListQuery, PipelineRunStatus, RunTrigger } from '@slipway/contracts';
import type { AppDb } from '../../platform/database/database.js';
import { pageOf, totalOf } from '../../platform/database/paging.js';
import { anyRow, firstRow } from '../../platform/database/rows.js';
import { environments, pipelineRuns, pipelines, pipelineVersions } from '../../platform/database/schema.js';

export type RunRow = typeof pipelineRuns.$inferSelect;
/**
 * A claimed run; `resumed` when it was in progress (its lease lapsed), so it may have task runs.
 * With its organisation (the tenant its steps share slots as) and that organisation's cap on a
 * run's duration, read at the claim: a queued run gets the cap in force when it starts.
 */
export type ClaimedRun = RunRow & { resumed: boolean; organisationId: string; maxRunMinutes: number | null };
export type PipelineRow = typeof pipelines.$inferSelect;

export interface NewRun {
  workspaceId: string;
  pipelineId: string;
  pipelineName: string;
  pipelineVersion: number;
  params: Record<string, unknown>;
  workspaceBindings: unknown[];
  timeoutMs: number;
  trigger: RunTrigger;
  rerunOf?: string | null;
  rollbackOf?: string | null;
  environmentId?: string | null;
  /** a note from before the run started (an external pipeline that could not sync); kept at the end */
  message?: string | null;
  /** the run's name when its document gave one (metadata.name); otherwise `<pipeline>-<number>` */
  name?: string;
}

export interface ClaimLimits {
  perWorkspace: number;
  perPipeline: number;
}

export interface ClaimOptions {
  /** Organisations none of whose runs are claimed this time (they hold their share of this process). */
  skipOrganisations?: readonly string[];
}

interface Candidate {
  id: string;
  status: string;
  workspace_id: string;
  pipeline_id: string;
  organisation_id: string;
  max_run_minutes: number | null;
  /** the workspace's and the pipeline's limits on runs in progress, the defaults filled in */
  workspace_limit: number;
  pipeline_limit: number;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Row `id` of a table, when it is in the workspace. */
const inWorkspace = (
  table: typeof pipelines | typeof pipelineRuns | typeof environments,
  workspaceId: string,
  id: string,
) => and(eq(table.workspaceId, workspaceId), eq(table.id, id));

/** SQL of pipeline runs: creation, the engine's claims and leases, lists. */
export class RunStore {
  constructor(private readonly db: AppDb) {}

  async pipeline(workspaceId: string, pipelineId: string): Promise<PipelineRow | undefined> {
    return (await firstRow(this.db, pipelines, inWorkspace(pipelines, workspaceId, pipelineId))) ?? undefined;
  }

  async environmentExists(workspaceId: string, environmentId: string): Promise<boolean> {
    return anyRow(this.db, environments, [inWorkspace(environments, workspaceId, environmentId)]);
  }

  /**
   * Does a run in this environment use the Kubernetes executor? As the executor resolver decides:
   * the environment is bound to a cluster and a namespace.
   */
  async environmentOnCluster(environmentId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ clusterId: environments.clusterId, namespace: environments.namespace })
      .from(environments)
      .where(eq(environments.id, environmentId));
    return Boolean(row?.clusterId && row.namespace);
  }

  async definition(pipelineId: string, version: number): Promise<string | undefined> {
    const [row] = await this.db
      .select({ definition: pipelineVersions.definition })
      .from(pipelineVersions)
      .where(and(eq(pipelineVersions.pipelineId, pipelineId), eq(pipelineVersions.version, version)));
    return row?.definition;
  }

  /** Inserts a pending run numbered max+1 for its pipeline (serialised per pipeline). */
  async create(run: NewRun): Promise<RunRow> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${'run-number:' + run.pipelineId}))`);
      const [{ next }] = rowsOf<{ next: number }>(
        await tx.execute(
          sql`SELECT COALESCE(MAX(number), 0) + 1 AS next FROM pipeline_runs WHERE pipeline_id = ${run.pipelineId}`,
        ),
      ) as [{ next: number }];
      const number = Number(next);
      const [row] = await tx
        .insert(pipelineRuns)
        .values({
          id: randomUUID(),
          workspaceId: run.workspaceId,
          pipelineId: run.pipelineId,
          pipelineVersion: run.pipelineVersion,
          number,
          name: run.name ?? `${run.pipelineName}-${number}`,
          params: run.params,
          workspaceBindings: run.workspaceBindings,
          timeoutMs: run.timeoutMs,
          trigger: run.trigger,
          rerunOf: run.rerunOf ?? null,
          rollbackOf: run.rollbackOf ?? null,
          environmentId: run.environmentId ?? null,
          message: run.message ?? null,
        })
        .returning();
      return row!;
    });
  }

  async get(workspaceId: string, id: string): Promise<RunRow | undefined> {
    return (await firstRow(this.db, pipelineRuns, inWorkspace(pipelineRuns, workspaceId, id))) ?? undefined;
  }

  async byId(id: string): Promise<RunRow | undefined> {
    return (await firstRow(this.db, pipelineRuns, eq(pipelineRuns.id, id))) ?? undefined;
  }

  /** Just the run's status (the log sockets ask often). */
  async status(id: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ status: pipelineRuns.status })
      .from(pipelineRuns)
      .where(eq(pipelineRuns.id, id));
    return row?.status;
  }

  async list(workspaceId: string, status: PipelineRunStatus | undefined, query: PipelineRunListQuery) {
    const filters: SQL[] = [eq(pipelineRuns.workspaceId, workspaceId)];
    if (status) filters.push(eq(pipelineRuns.status, status));
    if (query.pipelineId) filters.push(eq(pipelineRuns.pipelineId, query.pipelineId));
    if (query.from) filters.push(gte(pipelineRuns.queuedAt, new Date(query.from)));
    if (query.to) filters.push(lt(pipelineRuns.queuedAt, new Date(query.to)));
    const where = and(...filters);
    const page = pageOf(query, pipelineRuns[query._sort]);
    const rows = await this.db
      .select()
      .from(pipelineRuns)
      .where(where)
      .orderBy(page.order, desc(pipelineRuns.id))
      .offset(page.offset)
      .limit(page.limit);
    const total = totalOf(await this.db.select({ n: count() }).from(pipelineRuns).where(where));
    return { rows, total };
  }

  /** 1-based place among the workspace's pending runs, in queue order. */
  async queuePosition(run: RunRow): Promise<number | null> {
    if (run.status !== 'pending') return null;
    const [row] = await this.db
      .select({ n: count() })
      .from(pipelineRuns)
      .where(
        and(
          eq(pipelineRuns.workspaceId, run.workspaceId),
          eq(pipelineRuns.status, 'pending'),
          sql`(${pipelineRuns.queuedAt}, ${pipelineRuns.id}) < (${run.queuedAt.toISOString()}::timestamptz, ${run.id})`,
        ),
      );
    return (row?.n ?? 0) + 1;
  }

  async previousSuccess(run: RunRow): Promise<RunRow | undefined> {
    const [row] = await this.db
      .select()
      .from(pipelineRuns)
      .where(
        and(
          eq(pipelineRuns.pipelineId, run.pipelineId),
          eq(pipelineRuns.status, 'succeeded'),
          sql`${pipelineRuns.number} < ${run.number}`,
        ),
      )
      .orderBy(desc(pipelineRuns.number))
      .limit(1);
    return row;
  }

  /** Asks for a run to stop; a pending run nobody holds ends at once. Returns the row after. */
  async requestCancel(id: string): Promise<void> {
    await this.db.execute(sql`
      UPDATE pipeline_runs SET cancel_requested_at = COALESCE(cancel_requested_at, now()),
        status = CASE WHEN status = 'pending' THEN 'cancelled' ELSE status END,
        reason = CASE WHEN status = 'pending' THEN 'Cancelled' ELSE reason END,
        finished_at = CASE WHEN status = 'pending' THEN now() ELSE finished_at END
      WHERE id = ${id} AND status IN ('pending', 'in_progress')`);
  }

  /** Cheap probe for the idle tick: is there anything a claim could take? */
  async anyClaimable(): Promise<boolean> {
    const rows = rowsOf(
      await this.db.execute(sql`SELECT 1 FROM pipeline_runs WHERE status IN ('pending', 'in_progress')
        AND (claimed_until IS NULL OR claimed_until < now()) LIMIT 1`),
    );
    return rows.length > 0;
  }

  /**
   * Claims up to `limit` runnable runs for `instance`: runs in progress whose lease lapsed (to
   * recover) and pending runs admitted within the per-workspace and per-pipeline limits (they turn
   * in_progress here): each workspace's and pipeline's own `max_runs_in_progress`, else `limits`. Rows are locked with SKIP LOCKED; admission is serialised by an advisory lock.
   *
   * Organisations take turns: candidates are ordered by their place in their organisation's own
   * queue (then by age), and pending runs that their workspace's or pipeline's limit holds back are
   * not candidates at all, so one organisation's queue, however long, never hides another's run.
   */
  async claim(
    instance: string,
    limit: number,
    leaseMs: number,
    limits: ClaimLimits,
    options: ClaimOptions = {},
  ): Promise<ClaimedRun[]> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('slipway-run-claim'))`);
      const skip = options.skipOrganisations ?? [];
      const skipped =
        skip.length > 0
          ? sql`AND w.organisation_id NOT IN (${sql.join(
              skip.map((id) => sql`${id}`),
              sql`, `,
            )})`
          : sql``;
      // Each workspace's and pipeline's own limit (issue 15), else the engine's defaults: the same
      // counts in the database hold them across every replica claiming under this lock.
      const workspaceLimit = sql`coalesce(w.max_runs_in_progress, ${limits.perWorkspace})`;
      const pipelineLimit = sql`coalesce(p.max_runs_in_progress, ${limits.perPipeline})`;
      const order = rowsOf<{ id: string }>(
        await tx.execute(sql`WITH per_workspace AS (
            SELECT workspace_id, count(*) AS n FROM pipeline_runs WHERE status = 'in_progress' GROUP BY 1
          ), per_pipeline AS (
            SELECT pipeline_id, count(*) AS n FROM pipeline_runs WHERE status = 'in_progress' GROUP BY 1
          ), ranked AS (
            SELECT r.id, r.queued_at,
              row_number() OVER (PARTITION BY w.organisation_id ORDER BY r.queued_at, r.id) AS turn
            FROM pipeline_runs r
            JOIN workspaces w ON w.id = r.workspace_id
            LEFT JOIN pipelines p ON p.id = r.pipeline_id
            LEFT JOIN per_workspace pw ON pw.workspace_id = r.workspace_id
            LEFT JOIN per_pipeline pp ON pp.pipeline_id = r.pipeline_id
            WHERE r.status IN ('pending', 'in_progress')
              AND (r.claimed_until IS NULL OR r.claimed_until < now()) ${skipped}
              AND (r.status = 'in_progress' OR (coalesce(pw.n, 0) < ${workspaceLimit}
                AND coalesce(pp.n, 0) < ${pipelineLimit}))
          )
          SELECT id FROM ranked ORDER BY turn, queued_at, id LIMIT ${limit}`),
      );
      if (order.length === 0) return [];
      const locked = rowsOf<Candidate>(
        await tx.execute(sql`SELECT r.id, r.status, r.workspace_id, r.pipeline_id, w.organisation_id,
            o.max_run_minutes, ${workspaceLimit} AS workspace_limit, ${pipelineLimit} AS pipeline_limit
          FROM pipeline_runs r
          JOIN workspaces w ON w.id = r.workspace_id
          JOIN organisations o ON o.id = w.organisation_id
          LEFT JOIN pipelines p ON p.id = r.pipeline_id
          WHERE r.id IN (${sql.join(
            order.map((row) => sql`${row.id}`),
            sql`, `,
          )}) AND r.status IN ('pending', 'in_progress')
            AND (r.claimed_until IS NULL OR r.claimed_until < now())
          FOR UPDATE OF r SKIP LOCKED`),
      );
      const byId = new Map(locked.map((row) => [row.id, row]));
      const candidates = order.flatMap((row) => byId.get(row.id) ?? []);
      if (candidates.length === 0) return [];
      const active = rowsOf<{ workspace_id: string; pipeline_id: string }>(
        await tx.execute(
          sql`SELECT workspace_id, pipeline_id FROM pipeline_runs WHERE status = 'in_progress'`,
        ),
      );
      const perWorkspace = new Map<string, number>();
      const perPipeline = new Map<string, number>();
      const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
      for (const row of active) {
        bump(perWorkspace, row.workspace_id);
        bump(perPipeline, row.pipeline_id);
      }
      const admitted: string[] = [];
      const recovered: string[] = [];
      for (const row of candidates) {
        if (row.status === 'in_progress') {
          recovered.push(row.id);
          continue;
        }
        if ((perWorkspace.get(row.workspace_id) ?? 0) >= Number(row.workspace_limit)) continue;
        if ((perPipeline.get(row.pipeline_id) ?? 0) >= Number(row.pipeline_limit)) continue;
        bump(perWorkspace, row.workspace_id);
        bump(perPipeline, row.pipeline_id);
        admitted.push(row.id);
      }
      const until = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
      const out: ClaimedRun[] = [];
      const tenancy = (id: string) => ({
        organisationId: byId.get(id)!.organisation_id,
        maxRunMinutes: byId.get(id)!.max_run_minutes,
      });
      if (admitted.length > 0)
        out.push(
          ...(await tx
            .update(pipelineRuns)
            .set({ status: 'in_progress', startedAt: sql`now()`, claimedBy: instance, claimedUntil: until })
            .where(inArray(pipelineRuns.id, admitted))
            .returning()
            .then((rows) => rows.map((row) => ({ ...row, resumed: false, ...tenancy(row.id) })))),
        );
      if (recovered.length > 0)
        out.push(
          ...(await tx
            .update(pipelineRuns)
            .set({ claimedBy: instance, claimedUntil: until })
            .where(inArray(pipelineRuns.id, recovered))
            .returning()
            .then((rows) => rows.map((row) => ({ ...row, resumed: true, ...tenancy(row.id) })))),
        );
      return out;
    });
  }

  /**
   * Ends every lease at once: on the embedded database only one process can be driving runs (it
   * holds the data directory), so the leases of a process that died are not waited out.
   */
  async expireLeases(): Promise<void> {
    await this.db
      .update(pipelineRuns)
      .set({ claimedUntil: sql`now()` })
      .where(sql`${pipelineRuns.claimedUntil} > now()`);
  }

  /** Extends the lease of the runs this instance holds; answers the ones whose cancel was asked. */
  async renew(instance: string, ids: string[], leaseMs: number): Promise<{ id: string; cancel: boolean }[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .update(pipelineRuns)
      .set({ claimedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
      .where(and(inArray(pipelineRuns.id, ids), eq(pipelineRuns.claimedBy, instance)))
      .returning({ id: pipelineRuns.id, cancelAt: pipelineRuns.cancelRequestedAt });
    return rows.map((r) => ({ id: r.id, cancel: r.cancelAt !== null }));
  }

  async finish(
    id: string,
    instance: string,
    end: { status: PipelineRunStatus; reason: string; message: string; results: unknown },
  ): Promise<void> {
    await this.db
      .update(pipelineRuns)
      .set({
        ...end,
        // a note written when the run was created stays in front of the outcome
        message: sql`CASE WHEN coalesce(${pipelineRuns.message}, '') = '' THEN ${end.message}
          ELSE ${pipelineRuns.message} || ' ' || ${end.message} END`,
        finishedAt: sql`now()`,
        claimedBy: null,
        claimedUntil: null,
      })
      .where(and(eq(pipelineRuns.id, id), eq(pipelineRuns.claimedBy, instance)));
  }
}
