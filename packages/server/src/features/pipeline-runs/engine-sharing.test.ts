import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../platform/database/database.js';
import { taskRuns } from '../../platform/database/schema.js';
import { LocalExecutor } from '../pipelines/executor/local-executor.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../../test-support/test-database.js';
import { FINISHED, insertPipeline, runsOf, seedWorkspace, waitFor } from './pipeline-runs.test-helper.js';

const markerPipeline = (dir: string) => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: marker }
spec:
  tasks:
    - name: one
      taskSpec: { steps: [{ name: mark, image: alpine, script: 'echo x >> ${dir}/$(context.taskRun.name)' }] }
    - name: two
      runAfter: [one]
      taskSpec: { steps: [{ name: mark, image: alpine, script: 'echo x >> ${dir}/$(context.taskRun.name)' }] }
`;

const SLEEP = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: sleepy }
spec:
  tasks:
    - name: nap
      taskSpec: { steps: [{ name: sleep, image: alpine, script: 'echo going; sleep 30' }] }
`;

describe('run engines sharing one database (LocalExecutor)', () => {
  let db: TestDatabase;
  let dir: string;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'slipway-sharing-'));
    workspaceId = await seedWorkspace(db.database);
  });
  afterAll(async () => {
    await db.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('recovers a run whose engine stopped mid-task: failed, "executor lost", logs kept', async () => {
    const executor = new LocalExecutor({ scratchRoot: path.join(dir, 'scratch') });
    const first = runsOf(db.database, executor, { dataDir: dir, leaseMs: 400 });
    first.engine.start();
    const pipelineId = await insertPipeline(db.database, workspaceId, SLEEP);
    const created = await first.service.create(workspaceId, {
      pipelineId,
      params: {},
      timeoutHours: 1,
      workspaces: [],
    });
    await waitFor(async () =>
      (await first.service.logs(workspaceId, created.id, { offset: 0 })).text.includes('going'),
    );
    await first.engine.stop();
    const second = runsOf(db.database, executor, { dataDir: dir, leaseMs: 400 });
    second.engine.start();
    try {
      const run = await waitFor(async () => {
        const r = await second.service.get(workspaceId, created.id);
        return FINISHED.includes(r.status) && r;
      }, 5000);
      expect(run).toMatchObject({ status: 'failed', reason: 'executor lost' });
      expect((await second.service.logs(workspaceId, created.id, { task: 'nap', offset: 0 })).text).toContain(
        'going',
      );
    } finally {
      await second.engine.stop();
    }
  });

  it.runIf(onPostgres)('two engines on two pools share 10 runs and run no task twice', async () => {
    const other: Database = await openDatabase({ databaseUrl: db.url, dataDir: '', poolMax: 4 });
    const markers = path.join(dir, 'markers');
    mkdirSync(markers);
    const executors = [0, 1].map(() => new LocalExecutor({ scratchRoot: path.join(dir, 'scratch') }));
    const counts = [0, 0];
    const engines = [db.database, other].map((database, i) =>
      runsOf(
        database,
        {
          runTask: (run, io, signal) => {
            counts[i]! += 1;
            return executors[i]!.runTask(run, io, signal);
          },
        },
        { dataDir: dir, maxRuns: 3, limits: { perWorkspace: 100, perPipeline: 100 } },
      ),
    );
    try {
      const pipelineId = await insertPipeline(db.database, workspaceId, markerPipeline(markers));
      const ids: string[] = [];
      for (let i = 0; i < 10; i += 1)
        ids.push(
          (
            await engines[0]!.service.create(workspaceId, {
              pipelineId,
              params: {},
              timeoutHours: 1,
              workspaces: [],
            })
          ).id,
        );
      for (const e of engines) e.engine.start();
      for (const id of ids) {
        const run = await waitFor(async () => {
          const r = await engines[0]!.service.get(workspaceId, id);
          return FINISHED.includes(r.status) && r;
        }, 30_000);
        expect(run.status).toBe('succeeded');
      }
      const files = readdirSync(markers);
      expect(files).toHaveLength(20);
      for (const file of files) expect(readFileSync(path.join(markers, file), 'utf8')).toBe('x\n');
      const rows = await db.database.db.select({ attempt: taskRuns.attempt }).from(taskRuns);
      expect(rows.filter((r) => r.attempt !== 1)).toEqual([]);
      expect(counts[0]! + counts[1]!).toBe(20);
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBeGreaterThan(0);
    } finally {
      await Promise.all(engines.map((e) => e.engine.stop()));
      await other.close();
    }
  });
});
