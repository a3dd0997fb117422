import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/database/database.js';
import { pipelines, workspaces } from '../../platform/database/schema.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../../test-support/test-database.js';
import { FakeExecutor } from '../pipelines/executor/fake-executor.js';
import type { Executor } from '../pipelines/executor/executor.js';
import { FINISHED, insertPipeline, runsOf, seedWorkspace, waitFor } from './pipeline-runs.test-helper.js';

const NAP = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: nap }
spec:
  tasks:
    - name: nap
      taskSpec: { steps: [{ name: s, image: alpine, script: 'sleep 1' }] }
`;

/**
 * Admission limits set per workspace and per pipeline (issue 15), held by two engines — two server
 * replicas — claiming from one database: on PGlite they share it, on PostgreSQL each has its own pool.
 */
describe(`admission limits across two engines (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  let db: TestDatabase;
  let other: Database;
  beforeEach(async () => {
    db = await createTestDatabase();
    other = onPostgres ? await openDatabase({ databaseUrl: db.url, dataDir: '', poolMax: 4 }) : db.database;
  });
  afterEach(async () => {
    if (other !== db.database) await other.close();
    await db.dispose();
  });

  /** Two engines of `maxRuns` each on the shared executor; `calls[i]` counts engine i's tasks. */
  function twoEngines(executor: Executor, maxRuns: number) {
    const calls = [0, 0];
    const engines = [db.database, other].map((database, i) =>
      runsOf(
        database,
        {
          runTask: (run, io, signal) => {
            calls[i]! += 1;
            return executor.runTask(run, io, signal);
          },
        },
        { dataDir: '/nonexistent', maxRuns },
      ),
    );
    return { engines, calls };
  }

  /** The most runs of `column = id` seen in progress at once, sampled every 10 ms until `stop`. */
  function sampleInProgress(column: 'workspace_id' | 'pipeline_id', id: string) {
    let max = 0;
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const result = (await db.database.db.execute(
          sql`SELECT count(*)::int AS n FROM pipeline_runs
            WHERE status = 'in_progress' AND ${sql.raw(column)} = ${id}`,
        )) as unknown as { rows: Array<{ n: number }> };
        max = Math.max(max, Number(result.rows[0]!.n));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    return {
      async stop() {
        stopped = true;
        await loop;
        return max;
      },
    };
  }

  const queue = async (
    ctx: ReturnType<typeof runsOf>,
    workspaceId: string,
    pipelineId: string,
    n: number,
  ) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 1)
      ids.push(
        (await ctx.service.create(workspaceId, { pipelineId, params: {}, timeoutHours: 1, workspaces: [] }))
          .id,
      );
    return ids;
  };

  const finish = async (ctx: ReturnType<typeof runsOf>, workspaceId: string, ids: string[]) => {
    for (const id of ids) {
      const run = await waitFor(async () => {
        const r = await ctx.service.get(workspaceId, id);
        return FINISHED.includes(r.status) && r;
      }, 20_000);
      expect(run.status).toBe('succeeded');
    }
  };

  it('a workspace limited to 1 never has two runs in progress at once', async () => {
    const workspaceId = await seedWorkspace(db.database);
    await db.database.db
      .update(workspaces)
      .set({ maxRunsInProgress: 1 })
      .where(eq(workspaces.id, workspaceId));
    const executor = new FakeExecutor().script('nap', { delayMs: 150 });
    const { engines } = twoEngines(executor, 5);
    const first = await insertPipeline(db.database, workspaceId, NAP);
    const second = await insertPipeline(db.database, workspaceId, NAP);
    const ids = [
      ...(await queue(engines[0]!, workspaceId, first, 3)),
      ...(await queue(engines[0]!, workspaceId, second, 3)),
    ];
    const sampler = sampleInProgress('workspace_id', workspaceId);
    for (const e of engines) e.engine.start();
    try {
      await finish(engines[0]!, workspaceId, ids);
    } finally {
      await Promise.all(engines.map((e) => e.engine.stop()));
    }
    expect(await sampler.stop()).toBe(1);
    expect(executor.maxInFlight).toBe(1);
    expect(executor.calls).toHaveLength(6);
  });

  it('a pipeline limited to 3 runs three at once across the two engines, and no fourth', async () => {
    const workspaceId = await seedWorkspace(db.database);
    const pipelineId = await insertPipeline(db.database, workspaceId, NAP);
    await db.database.db.update(pipelines).set({ maxRunsInProgress: 3 }).where(eq(pipelines.id, pipelineId));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const executor = new FakeExecutor().script('nap', { until: held });
    // two runs per engine at most: three at once needs both engines
    const { engines, calls } = twoEngines(executor, 2);
    const ids = await queue(engines[0]!, workspaceId, pipelineId, 6);
    const sampler = sampleInProgress('pipeline_id', pipelineId);
    for (const e of engines) e.engine.start();
    try {
      await waitFor(async () => executor.inFlight === 3, 10_000);
      // a fourth is not admitted while three hold their slots, whichever engine looks
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(executor.inFlight).toBe(3);
      expect(calls[0]).toBeGreaterThan(0);
      expect(calls[1]).toBeGreaterThan(0);
      release();
      await finish(engines[0]!, workspaceId, ids);
    } finally {
      release();
      await Promise.all(engines.map((e) => e.engine.stop()));
    }
    expect(await sampler.stop()).toBe(3);
    expect(executor.maxInFlight).toBe(3);
    expect(executor.calls).toHaveLength(6);
  });

  it('a limit lowered while runs are in progress stops none, and admits no more until they are below it', async () => {
    const workspaceId = await seedWorkspace(db.database);
    const pipelineId = await insertPipeline(db.database, workspaceId, NAP);
    const setLimit = (n: number) =>
      db.database.db.update(pipelines).set({ maxRunsInProgress: n }).where(eq(pipelines.id, pipelineId));
    await setLimit(3);
    const gates = [0, 1, 2, 3].map(() => {
      let open!: () => void;
      const until = new Promise<void>((resolve) => (open = resolve));
      return { until, open };
    });
    const executor = new FakeExecutor().script('nap', ...gates.map(({ until }) => ({ until })));
    const { engines } = twoEngines(executor, 2);
    const ids = await queue(engines[0]!, workspaceId, pipelineId, 4);
    for (const e of engines) e.engine.start();
    try {
      await waitFor(async () => executor.inFlight === 3, 10_000);
      await setLimit(1);
      gates[0]!.open();
      await waitFor(async () => executor.inFlight === 2, 10_000);
      // two still in progress, over the new limit of 1: the fourth waits
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(executor.inFlight).toBe(2);
      expect(executor.calls).toHaveLength(3);
      gates[1]!.open();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(executor.calls).toHaveLength(3);
      gates[2]!.open();
      await waitFor(async () => executor.calls.length === 4, 10_000);
      gates[3]!.open();
      await finish(engines[0]!, workspaceId, ids);
    } finally {
      for (const gate of gates) gate.open();
      await Promise.all(engines.map((e) => e.engine.stop()));
    }
  });

  it('without limits of their own, a workspace and pipeline keep the defaults (2 per pipeline)', async () => {
    const workspaceId = await seedWorkspace(db.database);
    const pipelineId = await insertPipeline(db.database, workspaceId, NAP);
    const executor = new FakeExecutor().script('nap', { delayMs: 200 });
    const { engines } = twoEngines(executor, 5);
    const ids = await queue(engines[0]!, workspaceId, pipelineId, 5);
    const sampler = sampleInProgress('pipeline_id', pipelineId);
    for (const e of engines) e.engine.start();
    try {
      await finish(engines[0]!, workspaceId, ids);
    } finally {
      await Promise.all(engines.map((e) => e.engine.stop()));
    }
    expect(await sampler.stop()).toBe(2);
    expect(executor.maxInFlight).toBe(2);
  });
});
