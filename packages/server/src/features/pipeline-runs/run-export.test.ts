import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail, PipelineRunView } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, waitFor } from './pipeline-runs.test-helper.js';
import { crdIssues } from './run-export.test-helper.js';

/**
 * GET /api/pipelineruns/:id/export: runs as Tekton shows them at each end (run-documents.test.ts
 * covers the export of what the documents gave), each held to the PipelineRun CRD's schema.
 */
describe('GET /api/pipelineruns/:id/export: the status as Tekton writes it', () => {
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
    }, 20_000);

  // the example of tektoncd/pipeline docs/pipelineruns.md ("Monitoring execution status")
  it('lists a task its when expressions skipped with them resolved, and the run as Completed', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: pipelinerun-to-skip-task }
spec:
  params: [{ name: path, value: foo }]
  pipelineSpec:
    params: [{ name: path }]
    tasks:
      - name: skip-this-task
        when:
          - { input: $(params.path), operator: in, values: [bar] }
          - { input: $(params.path), operator: notin, values: [foo] }
        taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
      - name: run-this-task
        taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished((res.json() as PipelineRunView).id);
    expect(run.status).toBe('succeeded');
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.status.conditions[0]).toMatchObject({
      type: 'Succeeded',
      status: 'True',
      reason: 'Completed',
      message: 'Tasks Completed: 1 (Failed: 0, Cancelled 0), Skipped: 1',
    });
    expect(doc.status.skippedTasks).toEqual([
      {
        name: 'skip-this-task',
        reason: 'When Expressions evaluated to false',
        whenExpressions: [
          { input: 'foo', operator: 'in', values: ['bar'] },
          { input: 'foo', operator: 'notin', values: ['foo'] },
        ],
      },
    ]);
    expect(doc.status.childReferences).toEqual([
      {
        apiVersion: 'tekton.dev/v1',
        kind: 'TaskRun',
        name: 'pipelinerun-to-skip-task-run-this-task',
        pipelineTaskName: 'run-this-task',
      },
    ]);
  });

  it('exports a failed run with the Failed condition and the tasks it skipped', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { generateName: failing- }
spec:
  pipelineSpec:
    tasks:
      - name: boom
        taskSpec: { steps: [{ name: fail, image: alpine, script: 'exit 3' }] }
      - name: after
        runAfter: [boom]
        taskSpec: { steps: [{ name: never, image: alpine, script: 'echo never' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished(res.json().id);
    expect(run.status).toBe('failed');
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.status.conditions[0]).toMatchObject({ type: 'Succeeded', status: 'False', reason: 'Failed' });
    expect(doc.status.conditions[0].message).toMatch(
      /^Tasks Completed: 1 \(Failed: 1, Cancelled 0\), Skipped: 1/,
    );
    expect(doc.status.skippedTasks).toEqual([{ name: 'after', reason: 'PipelineRun was stopping' }]);
    expect(doc.spec.pipelineSpec.tasks).toHaveLength(2);
  });

  it('exports a running run as Running and an aborted one as Cancelled, with spec.status Cancelled', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: TaskRun
metadata: { name: sleeper }
spec:
  taskSpec: { steps: [{ name: nap, image: alpine, script: 'echo going; sleep 30' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as PipelineRunView).id;
    const running = await waitFor(async () => {
      const doc = (await get(`/api/pipelineruns/${id}/export`)).json();
      return doc.status.childReferences && doc;
    }, 15_000);
    expect(crdIssues(running)).toEqual([]);
    expect(running.status.conditions[0]).toMatchObject({ status: 'Unknown', reason: 'Running' });
    expect(running.status.completionTime).toBeUndefined();
    await t.app.inject({ method: 'POST', url: `/api/pipelineruns/${id}/abort`, headers: user.headers });
    const run = await finished(id);
    expect(run.status).toBe('cancelled');
    const doc = (await get(`/api/pipelineruns/${id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.spec.status).toBe('Cancelled');
    expect(doc.status.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'Cancelled',
      message: 'PipelineRun "sleeper" was cancelled',
    });
  });

  it("exports a run past its timeouts.pipeline as PipelineRunTimeout, with Tekton's message", async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: too-slow }
spec:
  timeouts: { pipeline: 1s }
  pipelineSpec:
    tasks:
      - name: nap
        taskSpec: { steps: [{ name: sleep, image: alpine, script: 'sleep 20' }] }
`);
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished((res.json() as PipelineRunView).id);
    expect(run.status).toBe('timed_out');
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.spec.timeouts).toEqual({ pipeline: '1s' });
    expect(doc.status.conditions[0]).toMatchObject({
      status: 'False',
      reason: 'PipelineRunTimeout',
      message: 'PipelineRun "too-slow" failed to finish within "1s"',
    });
    expect(doc.status.completionTime).toEqual(expect.any(String));
  });
});
