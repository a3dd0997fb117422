import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentDetail, PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { attachCluster, type AttachedCluster } from '../../clusters/attached-agent.test-helper.js';
import { FINISHED, insertPipeline, runsOf, waitFor } from '../../pipeline-runs/pipeline-runs.test-helper.js';
import { FakeExecutor } from '../executor/fake-executor.js';
import { RUN_ID_LABEL } from './pipeline-run-object.js';
import { TektonPlayer, tektonCrds } from './tekton-controller.test-helper.js';
import { tektonHandOff } from './tekton-hand-off.js';

const NS = 'ci';
const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: two-steps }
spec:
  tasks:
    - name: build
      taskSpec:
        steps:
          - { name: compile, image: alpine:3.20, script: echo compiling }
    - name: test
      runAfter: [build]
      taskSpec:
        steps:
          - { name: unit, image: alpine:3.20, script: echo testing }
`;

describe('a handed-off run and the engine around it: a takeover, the agent gone, Tekton silent', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;

  beforeAll(async () => {
    // the app's own engine is off: the test runs the engines, one after the other
    t = await createTestApp({ SLIPWAY_ENGINE: 'off' });
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner, { name: 'tekton' }, { customResourceDefinitions: tektonCrds() });
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  afterAll(async () => {
    await cluster.close();
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
  const engine = (graceMs?: number) =>
    runsOf(t.db.database, new FakeExecutor(), {
      dataDir: t.dir,
      handOff: tektonHandOff({
        gateway: t.app.agentGateway,
        target: async () => ({ clusterId: cluster.clusterId, namespace: NS }),
        retryMs: 50,
        ...(graceMs !== undefined ? { graceMs } : {}),
      }),
    });
  /** The name of the PipelineRun handed off for a run, once it is there. */
  const handedOff = async (id: string) => {
    let name = '';
    await expect
      .poll(
        () =>
          (name =
            (cluster.api
              .list('tekton.dev/v1', 'PipelineRun', NS)
              .find((o) => (o.metadata.labels as Record<string, string>)[RUN_ID_LABEL] === id)?.metadata
              .name as string | undefined) ?? ''),
        { timeout: 10_000 },
      )
      .not.toBe('');
    return name;
  };

  it('follows the PipelineRun it finds instead of applying it again, and keeps the task runs and their logs', async () => {
    const envs = (await call('GET', '/api/environments?name=staging')).json() as EnvironmentDetail[];
    const bound = await call('PUT', `/api/environments/${envs[0]!.id}`, {
      clusterId: cluster.clusterId,
      namespace: NS,
    });
    expect(bound.statusCode, bound.body).toBe(200);
    const pipelineId = await insertPipeline(t.db.database, owner.workspaceId, PIPELINE);
    const created = await call('POST', '/api/pipelineruns', { pipelineId, environmentId: envs[0]!.id });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;

    const first = engine();
    first.engine.start();
    const name = await handedOff(id);
    const tekton = new TektonPlayer(cluster.api, NS, name);
    const build = tekton.startTask('build', [{ name: 'compile', log: 'before the restart\n' }]);
    const buildRow = await waitFor(async () =>
      (await first.tasks.taskRuns(id)).find((r) => r.name === 'build' && r.status === 'running'),
    );
    await waitFor(async () =>
      (await call('GET', `/api/pipelineruns/${id}/logs?task=build`)).body.includes('before the restart'),
    );

    // the engine stops (its leases lapse); Tekton goes on meanwhile
    await first.engine.stop();
    await first.runs.expireLeases();
    const applies = () =>
      cluster.api.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/pipelineruns/${name}`))
        .length;
    const appliedBefore = applies();
    cluster.api.appendLog(NS, `${build}-pod`, 'step-compile', 'after the restart\n');
    tekton.finishTask(build, [{ name: 'compile' }]);
    const test = tekton.startTask('test', [{ name: 'unit', log: 'testing\n' }]);
    tekton.finishTask(test, [{ name: 'unit' }]);
    tekton.end({
      status: 'True',
      reason: 'Succeeded',
      message: 'Tasks Completed: 2 (Failed: 0, Cancelled 0), Skipped: 0',
    });

    const second = engine();
    second.engine.start();
    try {
      const done = await waitFor(async () => {
        const r = (await call('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
        return FINISHED.includes(r.status) && r;
      }, 20_000);
      expect(done.status, JSON.stringify(done)).toBe('succeeded');
      expect(applies()).toBe(appliedBefore);
      expect(done.taskRuns.map((r) => [r.name, r.status]).sort()).toEqual([
        ['build', 'succeeded'],
        ['test', 'succeeded'],
      ]);
      expect(done.taskRuns.find((r) => r.name === 'build')!.id).toBe(buildRow.id);
      const logs = (await call('GET', `/api/pipelineruns/${id}/logs?task=build`)).body;
      expect(logs.split('before the restart').length - 1).toBe(1);
      expect(logs).toContain('after the restart');
    } finally {
      await second.engine.stop();
    }
  });

  it("fails the run when the agent stays away past the run's timeout: the PipelineRun's end is not known", async () => {
    const envs = (await call('GET', '/api/environments?name=staging')).json() as EnvironmentDetail[];
    const pipelineId = await insertPipeline(t.db.database, owner.workspaceId, PIPELINE);
    // a run of about two seconds
    const created = await call('POST', '/api/pipelineruns', {
      pipelineId,
      environmentId: envs[0]!.id,
      timeoutHours: 0.0005,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    const running = engine(200);
    running.engine.start();
    try {
      await handedOff(id);
      await cluster.agent.stop();
      const done = await waitFor(async () => {
        const r = (await call('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
        return FINISHED.includes(r.status) && r;
      }, 20_000);
      expect(done).toMatchObject({
        status: 'failed',
        reason: "Agent not active: the PipelineRun's end is not known",
      });
    } finally {
      await running.engine.stop();
    }
  });

  /** A run of the two-task pipeline on its own engine (short grace), handed off. */
  const handOffRun = async (body: object = {}) => {
    const envs = (await call('GET', '/api/environments?name=staging')).json() as EnvironmentDetail[];
    const pipelineId = await insertPipeline(t.db.database, owner.workspaceId, PIPELINE);
    const created = await call('POST', '/api/pipelineruns', {
      pipelineId,
      environmentId: envs[0]!.id,
      ...body,
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: string }).id;
  };
  const finished = (id: string) =>
    waitFor(async () => {
      const r = (await call('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(r.status) && r;
    }, 20_000);

  it('ends an aborted run as cancelled, saying so, when Tekton does not confirm the cancel', async () => {
    await cluster.agent.start();
    await expect
      .poll(() => t.app.agentGateway.isConnected(cluster.clusterId), { timeout: 10_000 })
      .toBe(true);
    const id = await handOffRun();
    const running = engine(300);
    running.engine.start();
    try {
      const name = await handedOff(id);
      expect((await call('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(200);
      const done = await finished(id);
      expect(done).toMatchObject({ status: 'cancelled', reason: 'Cancelled' });
      expect(done.message).toContain('Tekton had not confirmed the cancel');
      expect(
        (cluster.api.get('tekton.dev/v1', 'PipelineRun', name, NS)!.spec as { status?: string }).status,
      ).toBe('Cancelled');
    } finally {
      await running.engine.stop();
    }
  });

  it('cancels a PipelineRun Tekton has not ended by the time the run times out, and ends it timed out', async () => {
    const id = await handOffRun({ timeoutHours: 0.0005 });
    const running = engine(200);
    running.engine.start();
    try {
      const name = await handedOff(id);
      const done = await finished(id);
      expect(done).toMatchObject({ status: 'timed_out' });
      expect(done.message).toContain('Tekton had not ended it');
      await expect
        .poll(
          () =>
            (cluster.api.get('tekton.dev/v1', 'PipelineRun', name, NS)!.spec as { status?: string }).status,
        )
        .toBe('Cancelled');
    } finally {
      await running.engine.stop();
    }
  });
});
