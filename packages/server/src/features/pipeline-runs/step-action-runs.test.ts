import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, insertPipeline, waitFor } from './pipeline-runs.test-helper.js';

/*
 * A run of a pipeline whose text holds a StepAction and the Task using it (tektoncd/pipeline
 * docs/stepactions.md): the step's params from the task's, its step result lifted into a task
 * result, read by the next pipeline task, and a later step reading an earlier step's exit code.
 */
const TEXT = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: stamp
spec:
  params:
    - name: label
  results:
    - name: stamp
  image: alpine
  env:
    - name: LABEL
      value: $(params.label)
  script: |
    printf 'stamped-%s' "$LABEL" > $(step.results.stamp.path)
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: stamped
spec:
  params:
    - name: label
  results:
    - name: stamp
      value: $(steps.stamp-it.results.stamp)
  steps:
    - name: stamp-it
      ref: { name: stamp }
      params:
        - name: label
          value: $(params.label)
    - name: show
      image: alpine
      env:
        - name: STAMP
          value: $(steps.stamp-it.results.stamp)
      script: |
        echo "stamp=$STAMP exit=$(cat $(steps.step-stamp-it.exitCode.path))"
---
apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: stamping }
spec:
  params:
    - name: label
      default: v1
  results:
    - name: stamp
      value: $(tasks.first.results.stamp)
  tasks:
    - name: first
      taskRef: { name: stamped }
      params:
        - name: label
          value: $(params.label)
    - name: second
      params:
        - name: got
          value: $(tasks.first.results.stamp)
      taskSpec:
        params: [{ name: got }]
        steps:
          - name: echo
            image: alpine
            script: echo "second got $(params.got)"
`;

describe('runs of StepActions and step results (LocalExecutor)', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  it("runs the StepAction, gives its result to the next step and task, and the pipeline's result", async () => {
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, TEXT);
    const res = await inject('POST', '/api/pipelineruns', { pipelineId, params: { label: 'rc1' } });
    expect(res.statusCode, res.body).toBe(201);
    const run = await waitFor(async () => {
      const detail = (await inject('GET', `/api/pipelineruns/${res.json().id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(detail.status) && detail;
    }, 15_000);
    const logs = (await inject('GET', `/api/pipelineruns/${run.id}/logs?task=first`)).body;
    expect(run.status, logs).toBe('succeeded');
    expect(logs).toContain('stamp=stamped-rc1 exit=0');
    const second = (await inject('GET', `/api/pipelineruns/${run.id}/logs?task=second`)).body;
    expect(second).toContain('second got stamped-rc1');
    expect(run.results).toEqual({ stamp: 'stamped-rc1' });
  });
});
