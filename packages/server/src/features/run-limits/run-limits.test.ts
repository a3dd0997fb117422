import { eq, sql } from 'drizzle-orm';
import { MAX_RUNS_IN_PROGRESS_RULE_MESSAGE, MESSAGES } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pipelines } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs, query } from '../members/team.test-helper.js';
import { DEFAULT_RUN_LIMITS } from '../pipeline-runs/engine.js';
import { insertPipeline, runsOf } from '../pipeline-runs/pipeline-runs.test-helper.js';
import { FakeExecutor } from '../pipelines/executor/fake-executor.js';

const ONE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: one }
spec:
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`;

describe('admission limits set by admins (runs in progress per workspace and per pipeline)', () => {
  let t: TestApp;
  let owner: TestUser;
  let foreign: TestUser;
  let pipelineId: string;
  beforeAll(async () => {
    // no engine of its own: this test's claims are the only ones
    t = await createTestApp({ SLIPWAY_ENGINE: 'off' });
    owner = await createSignedInUser(t.app, t.db.database);
    foreign = await createSignedInUser(t.app, t.db.database);
    pipelineId = await insertPipeline(t.db.database, owner.workspaceId, ONE);
  });
  afterAll(() => t.close());

  const url = (kind: 'workspaces' | 'pipelines', id: string) => `/api/${kind}/${id}/run-limit`;
  const get = (who: TestUser, kind: 'workspaces' | 'pipelines', id: string) =>
    t.app.inject({ url: url(kind, id), headers: who.headers });
  const put = (who: TestUser, kind: 'workspaces' | 'pipelines', id: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: url(kind, id), headers: who.headers, payload });

  it('has the defaults at first: 4 per workspace, 2 per pipeline', async () => {
    expect((await get(owner, 'workspaces', owner.workspaceId)).json()).toEqual({
      maxRunsInProgress: null,
      defaultLimit: 4,
      effective: 4,
    });
    expect((await get(owner, 'pipelines', pipelineId)).json()).toEqual({
      maxRunsInProgress: null,
      defaultLimit: 2,
      effective: 2,
      workspaceLimit: 4,
    });
  });

  it("a workspace admin sets the workspace's, audited as workspace.update; the claim admits by it", async () => {
    const admin = await joinAs(t, owner, 'member', 'project_admin');
    const set = await put(admin, 'workspaces', owner.workspaceId, { maxRunsInProgress: 6 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ maxRunsInProgress: 6, defaultLimit: 4, effective: 6 });
    const piped = await put(owner, 'pipelines', pipelineId, { maxRunsInProgress: 5 });
    expect(piped.json()).toEqual({ maxRunsInProgress: 5, defaultLimit: 2, effective: 5, workspaceLimit: 6 });
    await expectAudited(t, 'workspace.update', {
      outcome: 'success',
      target_type: 'workspace',
      target_id: owner.workspaceId,
      actor_id: admin.userId,
    });
    await expectAudited(t, 'pipeline.update', {
      outcome: 'success',
      target_type: 'pipeline',
      target_id: pipelineId,
      actor_id: owner.userId,
    });
    await vi.waitFor(async () => {
      const rows = await query(
        t,
        sql`SELECT action, detail FROM audit_events WHERE action IN ('workspace.update', 'pipeline.update')
          AND outcome = 'success' AND (target_id = ${owner.workspaceId} OR target_id = ${pipelineId})`,
      );
      expect(rows).toEqual(
        expect.arrayContaining([
          { action: 'workspace.update', detail: { maxRunsInProgress: 6 } },
          { action: 'pipeline.update', detail: { maxRunsInProgress: 5 } },
        ]),
      );
    });

    // 7 runs of the pipeline: its 5 are admitted (not the default 2), then no more
    const ctx = runsOf(t.db.database, new FakeExecutor(), { dataDir: '/nonexistent' });
    for (let i = 0; i < 7; i += 1)
      await ctx.service.create(owner.workspaceId, {
        pipelineId,
        params: {},
        timeoutHours: 1,
        workspaces: [],
      });
    expect(await ctx.runs.claim('replica-a', 50, 30_000, DEFAULT_RUN_LIMITS)).toHaveLength(5);
    expect(await ctx.runs.claim('replica-b', 50, 30_000, DEFAULT_RUN_LIMITS)).toHaveLength(0);

    // the workspace's limit still holds over a pipeline's above it
    await put(owner, 'workspaces', owner.workspaceId, { maxRunsInProgress: 1 });
    expect((await get(owner, 'pipelines', pipelineId)).json()).toEqual({
      maxRunsInProgress: 5,
      defaultLimit: 2,
      effective: 1,
      workspaceLimit: 1,
    });
    // cleared, back to the defaults
    expect((await put(owner, 'workspaces', owner.workspaceId, { maxRunsInProgress: null })).json()).toEqual({
      maxRunsInProgress: null,
      defaultLimit: 4,
      effective: 4,
    });
    expect((await put(owner, 'pipelines', pipelineId, { maxRunsInProgress: null })).json()).toMatchObject({
      maxRunsInProgress: null,
      effective: 2,
    });
  });

  it("a developer may not set the workspace's (403, audited as denied) but may set a pipeline's", async () => {
    const developer = await joinAs(t, owner, 'member', 'developer');
    const denied = await put(developer, 'workspaces', owner.workspaceId, { maxRunsInProgress: 50 });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    await expectAudited(t, 'workspace.update', { outcome: 'denied', actor_id: developer.userId });
    expect((await get(developer, 'workspaces', owner.workspaceId)).json()).toMatchObject({
      maxRunsInProgress: null,
    });
    expect((await put(developer, 'pipelines', pipelineId, { maxRunsInProgress: 3 })).statusCode).toBe(200);
    const viewer = await joinAs(t, owner, 'member', 'viewer');
    expect((await put(viewer, 'pipelines', pipelineId, { maxRunsInProgress: 1 })).statusCode).toBe(403);
    expect((await get(viewer, 'pipelines', pipelineId)).json()).toMatchObject({ maxRunsInProgress: 3 });
  });

  it('refuses values outside 1…100, naming the field and the rule (400)', async () => {
    for (const maxRunsInProgress of [0, -1, 101, 2.5, '3', true, undefined]) {
      for (const [kind, id] of [
        ['workspaces', owner.workspaceId],
        ['pipelines', pipelineId],
      ] as const) {
        const res = await put(owner, kind, id, { maxRunsInProgress });
        expect(res.statusCode, `${kind} ${String(maxRunsInProgress)}`).toBe(400);
        expect(res.json().details).toEqual([
          expect.objectContaining({
            path: 'body.maxRunsInProgress',
            message: MAX_RUNS_IN_PROGRESS_RULE_MESSAGE,
          }),
        ]);
      }
    }
    expect((await get(owner, 'pipelines', pipelineId)).json()).toMatchObject({ maxRunsInProgress: 3 });
  });

  it("answers 404 for another workspace's, a pipeline elsewhere and a template", async () => {
    expect((await put(owner, 'workspaces', foreign.workspaceId, { maxRunsInProgress: 1 })).statusCode).toBe(
      404,
    );
    const elsewhere = await insertPipeline(t.db.database, foreign.workspaceId, ONE);
    expect((await put(owner, 'pipelines', elsewhere, { maxRunsInProgress: 1 })).statusCode).toBe(404);
    expect((await get(owner, 'pipelines', elsewhere)).statusCode).toBe(404);
    const template = await insertPipeline(t.db.database, owner.workspaceId, ONE);
    await t.db.database.db.update(pipelines).set({ kind: 'template' }).where(eq(pipelines.id, template));
    expect((await put(owner, 'pipelines', template, { maxRunsInProgress: 1 })).statusCode).toBe(404);
    expect((await get(foreign, 'workspaces', foreign.workspaceId)).json()).toMatchObject({
      maxRunsInProgress: null,
    });
  });
});
