import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, waitFor } from './pipeline-runs.test-helper.js';
import { SECTION_TIMEOUT_TASK_REASON } from './run-document-timeouts.js';
import { crdIssues } from './run-export.test-helper.js';

/*
 * A PipelineRun's timeouts.tasks and timeouts.finally (tektoncd/pipeline docs/pipelineruns.md,
 * "Configuring a failure timeout"), run by Slipway's engine: when `tasks` passes, the running
 * tasks are stopped and no other task starts, the finally tasks still run and the run ends
 * PipelineRunTimeout; when `finally` passes, the running finally tasks are stopped and the run fails.
 */

describe('timeouts.tasks and timeouts.finally on the engine', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/pipelineruns',
      headers: { ...user.headers, 'content-type': 'application/yaml' },
      payload,
    });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
  const finished = (id: string) =>
    waitFor(async () => {
      const run = (await get(`/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(run.status) && run;
    }, 30_000);

  it('stops the tasks at timeouts.tasks, skips those not started, runs finally and ends PipelineRunTimeout', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: tasks-leash }
spec:
  timeouts:
    pipeline: 1m
    tasks: 2s
    finally: 20s
  pipelineSpec:
    tasks:
      - name: slow
        taskSpec: { steps: [{ name: nap, image: alpine, script: 'sleep 30' }] }
      - name: after
        runAfter: [slow]
        taskSpec: { steps: [{ name: say, image: alpine, script: 'echo never' }] }
    finally:
      - name: cleanup
        taskSpec: { steps: [{ name: say, image: alpine, script: 'echo cleaning up' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const began = Date.now();
    const run = await finished(res.json().id);
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(run.status).toBe('timed_out');
    expect(run.reason).toBe("the run's tasks exceeded timeouts.tasks of 2s");
    const task = (name: string) => run.taskRuns.find((r) => r.pipelineTask === name)!;
    expect(task('slow')).toMatchObject({ status: 'timed_out', reason: SECTION_TIMEOUT_TASK_REASON });
    expect(task('after').status).toBe('skipped');
    expect(task('cleanup').status).toBe('succeeded');

    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.spec.timeouts).toEqual({ pipeline: '1m0s', tasks: '2s', finally: '20s' });
    expect(doc.status.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'PipelineRunTimeout',
      message: 'PipelineRun "tasks-leash" failed due to tasks failed to finish within "2s"',
    });
    expect(doc.status.skippedTasks).toEqual([
      { name: 'after', reason: 'PipelineRun Tasks timeout has been reached' },
    ]);
  });

  it('stops the finally tasks at timeouts.finally, counted from their start, and fails the run', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: finally-leash }
spec:
  timeouts:
    pipeline: "0"
    finally: 1s
  pipelineSpec:
    tasks:
      - name: quick
        taskSpec: { steps: [{ name: nap, image: alpine, script: 'sleep 2' }] }
    finally:
      - name: cleanup
        taskSpec: { steps: [{ name: nap, image: alpine, script: 'sleep 30' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const began = Date.now();
    const run = await finished(res.json().id);
    expect(Date.now() - began).toBeLessThan(20_000);
    expect(run.status).toBe('failed');
    const task = (name: string) => run.taskRuns.find((r) => r.pipelineTask === name)!;
    // the 2 s task ran past the finally timeout (1 s): the finally clock starts with finally
    expect(task('quick').status).toBe('succeeded');
    expect(task('cleanup')).toMatchObject({ status: 'timed_out', reason: SECTION_TIMEOUT_TASK_REASON });
    expect(run.reason).toBe(`task "cleanup" failed: ${SECTION_TIMEOUT_TASK_REASON}`);
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.spec.timeouts).toEqual({ pipeline: '0', finally: '1s' });
    expect(doc.status.conditions[0]).toMatchObject({ status: 'False', reason: 'Failed' });
  });

  it('computes the tasks section as the pipeline timeout less finally\'s when only finally is given ("reserve a portion of it for finally")', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: reserved-finally }
spec:
  timeouts: { pipeline: 0h0m30s, finally: 0h0m28s }
  pipelineSpec:
    tasks:
      - name: slow
        taskSpec: { steps: [{ name: nap, image: alpine, script: 'sleep 30' }] }
    finally:
      - name: cleanup
        taskSpec: { steps: [{ name: say, image: alpine, script: 'echo cleaning up' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished(res.json().id);
    expect(run).toMatchObject({
      status: 'timed_out',
      reason: "the run's tasks exceeded timeouts.tasks of 2s",
    });
    const task = (name: string) => run.taskRuns.find((r) => r.pipelineTask === name)!;
    expect(task('slow').status).toBe('timed_out');
    expect(task('cleanup').status).toBe('succeeded');
  });

  it('lets a run whose tasks end within timeouts.tasks succeed, its finally included', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: in-time }
spec:
  timeouts: { pipeline: 0h4m0s, tasks: 0h1m0s }
  pipelineSpec:
    tasks:
      - name: a
        taskSpec: { steps: [{ name: say, image: alpine, script: 'echo a' }] }
    finally:
      - name: b
        taskSpec: { steps: [{ name: say, image: alpine, script: 'echo b' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished(res.json().id);
    expect(run.status, run.reason ?? '').toBe('succeeded');
  });

  it('refuses sections that do not fit the pipeline timeout, as Tekton words it, with the line', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: too-long }
spec:
  timeouts:
    pipeline: 0h0m60s
    tasks: 0h0m40s
    finally: 0h0m30s
  pipelineSpec:
    tasks:
      - name: a
        taskSpec: { steps: [{ name: say, image: alpine, script: 'echo a' }] }
`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'spec.timeouts.tasks (line 7, column 12): 40s + 30s should be <= pipeline duration',
    );
  });
});
