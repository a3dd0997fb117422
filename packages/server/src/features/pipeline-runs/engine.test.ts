import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { environments, pipelineRuns } from '../../platform/database/schema.js';
import { FakeExecutor } from '../pipelines/executor/fake-executor.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { FINISHED, insertPipeline, runsOf, seedWorkspace, waitFor } from './pipeline-runs.test-helper.js';

const step = (name: string) => `{ name: ${name}, image: alpine, script: "true" }`;

const DAG = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: dag }
spec:
  params: [{ name: mode, type: string, default: fast }]
  results: [{ name: final, value: $(tasks.b.results.out) }]
  tasks:
    - name: a
      taskSpec: { results: [{ name: out }], steps: [${step('s1')}] }
    - name: b
      params: [{ name: v, value: $(tasks.a.results.out) }]
      taskSpec: { params: [{ name: v }], results: [{ name: out }], steps: [${step('s1')}] }
    - name: c
      runAfter: [a]
      when: [{ input: $(params.mode), operator: in, values: [slow] }]
      taskSpec: { steps: [${step('s1')}] }
    - name: d
      runAfter: [b]
      taskSpec: { steps: [${step('s1')}] }
  finally:
    - name: report
      params: [{ name: status, value: $(tasks.status) }]
      taskSpec: { params: [{ name: status }], steps: [${step('s1')}] }
`;

const SLOW = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: slow }
spec:
  tasks:
    - name: wait
      taskSpec: { steps: [${step('s1')}] }
`;

const MATRIX = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: fan }
spec:
  tasks:
    - name: build
      matrix: { params: [{ name: os, value: [linux, mac] }] }
      taskSpec: { params: [{ name: os }], results: [{ name: out }], steps: [${step('s1')}] }
    - name: gather
      params: [{ name: all, value: ['$(tasks.build.results.out[*])'] }]
      taskSpec: { params: [{ name: all, type: array }], steps: [${step('s1')}] }
`;

describe('RunEngine (FakeExecutor, real database)', () => {
  let db: TestDatabase;
  let workspaceId: string;
  let dataDir: string;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    workspaceId = await seedWorkspace(db.database);
    dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-engine-'));
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });
  afterAll(async () => {
    await db.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function setup(
    executor: FakeExecutor,
    options: Parameters<typeof runsOf>[2] extends infer O ? Partial<O> : never = {},
  ) {
    const ctx = runsOf(db.database, executor, { dataDir, ...options });
    ctx.engine.start();
    stops.push(() => ctx.engine.stop());
    return ctx;
  }

  const finished = (ctx: ReturnType<typeof setup>, id: string, timeoutMs?: number) =>
    waitFor(async () => {
      const run = await ctx.service.get(workspaceId, id);
      return FINISHED.includes(run.status) && run;
    }, timeoutMs);

  it('orders tasks by results and runAfter, passes results, skips by when with a reason, runs finally', async () => {
    const executor = new FakeExecutor()
      .script('a', { results: { out: 'from-a' } })
      .script('b', { results: { out: 'B' } });
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, DAG);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    expect(created).toMatchObject({ status: 'pending', number: 1, params: { mode: 'fast' } });
    const run = await finished(ctx, created.id);
    expect(run).toMatchObject({ status: 'succeeded', reason: 'Completed', results: { final: 'B' } });
    const order = executor.calls.map((c) => c.run.name);
    expect(order.indexOf('a')).toBeLessThan(order.indexOf('b'));
    expect(order.indexOf('b')).toBeLessThan(order.indexOf('d'));
    expect(order.at(-1)).toBe('report');
    expect(executor.callsOf('b')[0]!.run.params).toMatchObject({ v: 'from-a' });
    expect(executor.callsOf('report')[0]!.run.params).toMatchObject({ status: 'Completed' });
    const c = run.taskRuns.find((t) => t.name === 'c')!;
    expect(c).toMatchObject({ status: 'skipped' });
    expect(c.reason).toContain('when');
    expect(run.taskRuns.find((t) => t.name === 'a')!.steps[0]).toMatchObject({
      name: 's1',
      status: 'succeeded',
    });
  });

  it('stops after a failure, skips dependants with the reason and still runs finally', async () => {
    const executor = new FakeExecutor().script('a', { status: 'failed', reason: 'exit code 3' });
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, DAG);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    const run = await finished(ctx, created.id);
    expect(run).toMatchObject({ status: 'failed', reason: 'task "a" failed: exit code 3' });
    expect(run.taskRuns.find((t) => t.name === 'b')).toMatchObject({
      status: 'skipped',
      reason: 'parent task "a" failed',
    });
    expect(executor.callsOf('report')[0]!.run.params).toMatchObject({ status: 'Failed' });
    expect(executor.callsOf('b')).toHaveLength(0);
  });

  it('times a run out and aborts its tasks', async () => {
    const executor = new FakeExecutor().script('wait', { delayMs: 10_000 });
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, SLOW);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 0.0001,
      workspaces: [],
    });
    const run = await finished(ctx, created.id, 5000);
    expect(run.status).toBe('timed_out');
    expect(run.reason).toContain('timeout');
    expect(run.taskRuns[0]).toMatchObject({ status: 'timed_out' });
  });

  it('aborts a running run (cancelled) and refuses to abort a finished one', async () => {
    const executor = new FakeExecutor().script('wait', { delayMs: 10_000 });
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, SLOW);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    await waitFor(async () => executor.inFlight > 0);
    await ctx.service.abort(workspaceId, created.id);
    const run = await finished(ctx, created.id, 3000);
    expect(run).toMatchObject({ status: 'cancelled', reason: 'Cancelled' });
    expect(run.taskRuns[0]).toMatchObject({ status: 'cancelled' });
    await expect(ctx.service.abort(workspaceId, created.id)).rejects.toMatchObject({ statusCode: 409 });
  });

  it('queues runs beyond the per-pipeline limit and shows their queue position', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const executor = new FakeExecutor().script('wait', { until: gate });
    const ctx = setup(executor, { limits: { perPipeline: 2, perWorkspace: 4 } });
    const pipelineId = await insertPipeline(db.database, workspaceId, SLOW);
    const body = { pipelineId, params: {}, timeoutHours: 1, workspaces: [] };
    const ids = [];
    for (let i = 0; i < 4; i += 1) ids.push((await ctx.service.create(workspaceId, body)).id);
    await waitFor(async () => executor.inFlight === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(executor.inFlight).toBe(2);
    const third = await ctx.service.get(workspaceId, ids[2]!);
    const fourth = await ctx.service.get(workspaceId, ids[3]!);
    expect(third).toMatchObject({ status: 'pending', queuePosition: 1 });
    expect(fourth).toMatchObject({ status: 'pending', queuePosition: 2 });
    release();
    for (const id of ids) expect((await finished(ctx, id)).status).toBe('succeeded');
    expect(executor.maxInFlight).toBe(2);
  });

  it('holds runs beyond the per-workspace limit across pipelines', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const executor = new FakeExecutor().script('wait', { until: gate });
    const ctx = setup(executor, { limits: { perPipeline: 5, perWorkspace: 1 } });
    const ids = [];
    for (let i = 0; i < 2; i += 1) {
      const pipelineId = await insertPipeline(db.database, workspaceId, SLOW);
      ids.push(
        (await ctx.service.create(workspaceId, { pipelineId, params: {}, timeoutHours: 1, workspaces: [] }))
          .id,
      );
    }
    await waitFor(async () => executor.inFlight === 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await ctx.service.get(workspaceId, ids[1]!)).status).toBe('pending');
    release();
    for (const id of ids) expect((await finished(ctx, id)).status).toBe('succeeded');
    expect(executor.maxInFlight).toBe(1);
  });

  it('ends a run whose task was running when its engine went away as failed: executor lost', async () => {
    const executor = new FakeExecutor().script('wait', { delayMs: 10_000 });
    const first = runsOf(db.database, executor, { dataDir, leaseMs: 300 });
    first.engine.start();
    const pipelineId = await insertPipeline(db.database, workspaceId, SLOW);
    const created = await first.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    await waitFor(async () => executor.inFlight > 0);
    await first.engine.stop(); // a crash, as far as the database can tell: nothing written
    expect((await first.service.get(workspaceId, created.id)).status).toBe('in_progress');
    const second = setup(new FakeExecutor(), { leaseMs: 300 });
    const run = await finished(second, created.id, 5000);
    expect(run).toMatchObject({ status: 'failed', reason: 'executor lost' });
    expect(run.taskRuns[0]).toMatchObject({ status: 'failed', reason: 'executor lost' });
  });

  it('fans a matrix out and aggregates its results for the consumer', async () => {
    const executor = new FakeExecutor()
      .script('build-0', { results: { out: 'L' } })
      .script('build-1', { results: { out: 'M' } });
    const ctx = setup(executor);
    const pipelineId = await insertPipeline(db.database, workspaceId, MATRIX);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    const run = await finished(ctx, created.id);
    expect(run.status).toBe('succeeded');
    expect(run.taskRuns.map((t) => t.name).sort()).toEqual(['build-0', 'build-1', 'gather']);
    expect(executor.callsOf('gather')[0]!.run.params).toMatchObject({ all: ['L', 'M'] });
  });

  it('resumes a run whose lease lapsed between tasks, keeping finished tasks and their results', async () => {
    const executor = new FakeExecutor().script('b', { results: { out: 'B2' } });
    const ctx = runsOf(db.database, executor, { dataDir });
    const pipelineId = await insertPipeline(db.database, workspaceId, DAG);
    const created = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    await db.database.db
      .update(pipelineRuns)
      .set({
        status: 'in_progress',
        startedAt: new Date(),
        claimedBy: 'gone',
        claimedUntil: new Date(Date.now() - 1000),
      })
      .where(eq(pipelineRuns.id, created.id));
    const a = await ctx.tasks.upsertTaskRun({
      runId: created.id,
      name: 'a',
      pipelineTask: 'a',
      isFinally: false,
      status: 'running',
    });
    await ctx.tasks.finishTaskRun(a, {
      status: 'succeeded',
      reason: '',
      results: { out: 'kept' },
      attempts: 1,
    });
    ctx.engine.start();
    stops.push(() => ctx.engine.stop());
    const run = await finished(ctx, created.id);
    expect(run).toMatchObject({ status: 'succeeded', results: { final: 'B2' } });
    expect(executor.callsOf('a')).toHaveLength(0);
    expect(executor.callsOf('b')[0]!.run.params).toMatchObject({ v: 'kept' });
  });

  it('asks executorFor for each run and stores, returns and re-runs with its environmentId', async () => {
    const local = new FakeExecutor();
    const other = new FakeExecutor();
    const asked: { id: string; workspaceId: string; executor: string; environmentId: string | null }[] = [];
    const ctx = setup(local, {
      executorFor: (run) => {
        asked.push(run);
        return run.environmentId ? other : local;
      },
    });
    const environmentId = randomUUID();
    await db.database.db
      .insert(environments)
      .values({ id: environmentId, workspaceId, name: `env-${environmentId.slice(0, 6)}`, type: 'staging' });
    const pipelineId = await insertPipeline(db.database, workspaceId, SLOW);
    const withEnv = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
      environmentId,
    });
    expect(withEnv.environmentId).toBe(environmentId);
    const plain = await ctx.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    expect(plain.environmentId).toBeNull();
    expect((await finished(ctx, withEnv.id)).environmentId).toBe(environmentId);
    await finished(ctx, plain.id);
    expect(other.callsOf('wait')).toHaveLength(1);
    expect(local.callsOf('wait')).toHaveLength(1);
    expect(asked.find((r) => r.id === withEnv.id)).toMatchObject({
      workspaceId,
      executor: 'local',
      environmentId,
    });
    const again = await ctx.service.rerun(workspaceId, withEnv.id);
    expect(again.environmentId).toBe(environmentId);
    await finished(ctx, again.id);
    await expect(
      ctx.service.create(workspaceId, {
        pipelineId,
        params: {},
        timeoutHours: 1,
        workspaces: [],
        environmentId: 'no-such-env',
      }),
    ).rejects.toMatchObject({ statusCode: 400, details: [{ path: 'environmentId' }] });
    const foreign = await seedWorkspace(db.database);
    const foreignPipeline = await insertPipeline(db.database, foreign, SLOW);
    await expect(
      ctx.service.create(foreign, {
        pipelineId: foreignPipeline,
        params: {},
        timeoutHours: 1,
        workspaces: [],
        environmentId,
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
  });

  it('answers 400 naming the param for bad params (an undeclared one is kept, as Tekton propagates it)', async () => {
    const ctx = runsOf(db.database, new FakeExecutor(), { dataDir });
    const pipelineId = await insertPipeline(db.database, workspaceId, DAG);
    await expect(
      ctx.service.create(workspaceId, {
        pipelineId,
        params: { mode: ['a'], nope: 'x' },
        timeoutHours: 1,
        workspaces: [],
      }),
    ).rejects.toMatchObject({ statusCode: 400, details: [{ path: 'params.mode' }] });
  });
});
