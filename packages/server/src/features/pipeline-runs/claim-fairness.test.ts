import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { FakeExecutor } from '../pipelines/executor/fake-executor.js';
import { insertPipeline, runsOf, seedWorkspace } from './pipeline-runs.test-helper.js';
import { DEFAULT_RUN_LIMITS } from './engine.js';

const ONE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: one }
spec:
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`;

/** RunStore.claim on its own (no engine runs here): the order in which organisations are served. */
describe('claims take organisations in turn', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(() => db.dispose());

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

  it("finds another organisation's run behind a long queue its limits hold back", async () => {
    const ctx = runsOf(db.database, new FakeExecutor(), { dataDir: '/nonexistent' });
    const busy = await seedWorkspace(db.database);
    const quiet = await seedWorkspace(db.database);
    const busyPipeline = await insertPipeline(db.database, busy, ONE);
    // 60 runs of one pipeline: more than a claim looks at, and all but 2 held back by its limit
    await queue(ctx, busy, busyPipeline, 60);
    const first = await ctx.runs.claim('me', 50, 30_000, DEFAULT_RUN_LIMITS);
    expect(first).toHaveLength(2);
    const [later] = await queue(ctx, quiet, await insertPipeline(db.database, quiet, ONE), 1);
    const second = await ctx.runs.claim('me', 1, 30_000, DEFAULT_RUN_LIMITS);
    expect(second.map((r) => r.id)).toEqual([later]);
    expect(second[0]).toMatchObject({ workspaceId: quiet, status: 'in_progress', maxRunMinutes: null });
    expect(second[0]!.organisationId).toBeTruthy();
  });

  it('alternates organisations within one claim, oldest first within each', async () => {
    const ctx = runsOf(db.database, new FakeExecutor(), { dataDir: '/nonexistent' });
    const a = await seedWorkspace(db.database);
    const b = await seedWorkspace(db.database);
    const limits = { perWorkspace: 100, perPipeline: 100 };
    const aRuns = await queue(ctx, a, await insertPipeline(db.database, a, ONE), 4);
    const bRuns = await queue(ctx, b, await insertPipeline(db.database, b, ONE), 2);
    const claimed = await ctx.runs.claim('me', 4, 30_000, limits);
    expect(new Set(claimed.map((r) => r.id))).toEqual(new Set([aRuns[0], aRuns[1], bRuns[0], bRuns[1]]));
    // a full process skips the organisations at their share
    const organisationOfA = claimed.find((r) => r.workspaceId === a)!.organisationId;
    await queue(ctx, b, (await ctx.runs.get(b, bRuns[0]!))!.pipelineId, 1);
    const skipping = await ctx.runs.claim('me', 1, 30_000, limits, { skipOrganisations: [organisationOfA] });
    expect(skipping.map((r) => r.workspaceId)).toEqual([b]);
  });
});
