import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organisations, workspaces } from '../../platform/database/schema.js';
import { LocalExecutor } from '../pipelines/executor/local-executor.js';
import { StepSpawner, type SpawnerMode } from '../pipelines/executor/step-spawner.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { FINISHED, insertPipeline, runsOf, seedWorkspace, waitFor } from './pipeline-runs.test-helper.js';

const SLEEPERS = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: sleepers }
spec:
  tasks:
    - name: one
      taskSpec: { steps: [{ name: nap, image: alpine, script: 'sleep 30' }] }
    - name: two
      taskSpec: { steps: [{ name: nap, image: alpine, script: 'sleep 30' }] }
`;

const HELLO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: hello }
spec:
  tasks:
    - name: greet
      taskSpec: { steps: [{ name: echo, image: alpine, script: 'echo hi' }] }
`;

const NAP = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: nap }
spec:
  tasks:
    - name: nap
      taskSpec: { steps: [{ name: sleep, image: alpine, script: 'sleep 30' }] }
`;

const run1h = (pipelineId: string) => ({ pipelineId, params: {}, timeoutHours: 1, workspaces: [] });

describe.each<SpawnerMode>(['helper', 'in-process'])('organisations share the engine fairly (%s)', (mode) => {
  let db: TestDatabase;
  let dataDir: string;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-fairness-'));
  });
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });
  afterAll(async () => {
    await db.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function engine(options: Partial<Parameters<typeof runsOf>[2]> = {}) {
    // two step slots whatever the machine, so that "every slot" means the same everywhere
    const executor = new LocalExecutor({
      scratchRoot: path.join(dataDir, 'scratch'),
      spawner: new StepSpawner(mode, 2),
      killGraceMs: 200,
    });
    const ctx = runsOf(db.database, executor, { dataDir, ...options });
    ctx.engine.start();
    stops.push(() => ctx.engine.stop());
    return ctx;
  }

  const organisationOf = async (workspaceId: string) =>
    (
      await db.database.db
        .select({ id: workspaces.organisationId })
        .from(workspaces)
        .where(eq(workspaces.id, workspaceId))
    )[0]!.id;

  it("starts another organisation's one-line run at once while one organisation fills every slot", async () => {
    const busy = await seedWorkspace(db.database);
    const quiet = await seedWorkspace(db.database);
    // every run slot of the process (4) and both step slots go to the busy organisation
    const ctx = engine({ maxRuns: 4 });
    const sleepers = [
      await insertPipeline(db.database, busy, SLEEPERS),
      await insertPipeline(db.database, busy, SLEEPERS),
    ];
    const busyRuns: { id: string }[] = [];
    for (const pipelineId of [...sleepers, ...sleepers, ...sleepers])
      busyRuns.push(await ctx.service.create(busy, run1h(pipelineId)));
    // 4 runs in progress (2 per pipeline), 8 sleeping tasks; 2 more runs wait in the queue
    await waitFor(async () => {
      const runs = await Promise.all(busyRuns.map((r) => ctx.service.get(busy, r.id)));
      const steps = runs.flatMap((r) => r.taskRuns.flatMap((t) => t.steps));
      return runs.filter((r) => r.status === 'in_progress').length === 4 && steps.length >= 8;
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the sleeps hold both slots

    const hello = await insertPipeline(db.database, quiet, HELLO);
    const created = await ctx.service.create(quiet, run1h(hello));
    const run = await waitFor(async () => {
      const r = await ctx.service.get(quiet, created.id);
      return FINISHED.includes(r.status) && r;
    }, 5000);
    expect(run.status).toBe('succeeded');
    const step = run.taskRuns[0]!.steps[0]!;
    const startedAfter = Date.parse(step.startedAt!) - Date.parse(created.queuedAt);
    expect(startedAfter).toBeLessThan(1000);
    expect((await ctx.service.logs(quiet, created.id, { offset: 0 })).text).toContain('hi');
    // the busy organisation's runs are untouched: still running or waiting their turn
    const busyNow = await Promise.all(busyRuns.map((r) => ctx.service.get(busy, r.id)));
    expect(busyNow.map((r) => r.status).sort()).toEqual([
      'in_progress',
      'in_progress',
      'in_progress',
      'in_progress',
      'pending',
      'pending',
    ]);
  }, 20_000);

  it("ends a run at its organisation's cap, given to it when it starts", async () => {
    const workspaceId = await seedWorkspace(db.database);
    const organisationId = await organisationOf(workspaceId);
    const pipelineId = await insertPipeline(db.database, workspaceId, NAP);
    // a minute lasts 400 ms here; the run is queued before the cap is set and gets it when it starts
    const ctx = runsOf(
      db.database,
      new LocalExecutor({ spawner: new StepSpawner(mode, 2), killGraceMs: 200 }),
      {
        dataDir,
        minuteMs: 400,
      },
    );
    const created = await ctx.service.create(workspaceId, run1h(pipelineId));
    await db.database.db
      .update(organisations)
      .set({ maxRunMinutes: 1 })
      .where(eq(organisations.id, organisationId));
    ctx.engine.start();
    stops.push(() => ctx.engine.stop());
    const run = await waitFor(async () => {
      const r = await ctx.service.get(workspaceId, created.id);
      return FINISHED.includes(r.status) && r;
    }, 5000);
    expect(run).toMatchObject({
      status: 'timed_out',
      reason: "the run exceeded the organisation's limit of 1 minute",
    });
    expect(run.taskRuns[0]).toMatchObject({ status: 'timed_out' });
    const lasted = Date.parse(run.finishedAt!) - Date.parse(run.startedAt!);
    expect(lasted).toBeGreaterThanOrEqual(350);
    expect(lasted).toBeLessThan(3000);
  }, 20_000);
});
