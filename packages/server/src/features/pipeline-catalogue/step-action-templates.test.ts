import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineDetail, TaskTemplate } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { PipelineDefinitionLoader } from './pipeline-definition-loader.js';
import { SqlPipelinesStore } from './pipelines-store.js';
import { TaskTemplatesService } from './task-templates-service.js';
import { SqlTaskTemplatesStore } from './task-templates-store.js';

/** StepActions kept with the task templates (decision 035), from tektoncd/pipeline docs/stepactions.md. */
const STEP_ACTION = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: greet-action
spec:
  params:
    - name: who
      default: world
  results:
    - name: greeting
  image: alpine
  env:
    - name: WHO
      value: $(params.who)
  script: |
    echo "hello $WHO" | tee $(step.results.greeting.path)
`;

const TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: greet-twice
spec:
  params:
    - name: name
  results:
    - name: said
      value: $(steps.first.results.greeting)
  steps:
    - name: first
      ref:
        name: greet-action
      params:
        - name: who
          value: $(params.name)
    - name: second
      ref:
        name: greet-action
`;

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: {name: greetings}
spec:
  tasks:
    - name: hi
      taskRef: {name: greet-twice}
      params:
        - name: name
          value: tekton
    - name: inline
      taskSpec:
        steps:
          - name: only
            ref: {name: greet-action}
`;

describe('StepActions with the task templates', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'POST' | 'PUT', url: string, who: TestUser, payload: object) =>
    t.app.inject({ method, url, headers: who.headers, payload });

  it('stores a StepAction, then Tasks and pipelines whose steps reference it, in that workspace only', async () => {
    const action = await call('POST', '/api/tasks', owner, { definition: STEP_ACTION });
    expect(action.statusCode, action.body).toBe(201);
    expect(action.json()).toMatchObject({ name: 'greet-action', builtIn: false });
    const task = await call('POST', '/api/tasks', owner, { definition: TASK });
    expect(task.statusCode, task.body).toBe(201);
    const pipeline = await call('POST', '/api/pipelines', owner, { name: 'Greetings', definition: PIPELINE });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    // another workspace has no such StepAction
    const elsewhere = await call('POST', '/api/tasks', stranger, { definition: TASK });
    expect(elsewhere.statusCode).toBe(400);
    expect((elsewhere.json() as { details: { path: string; message: string }[] }).details).toEqual([
      {
        path: 'spec.steps[0].ref.name',
        message:
          'step "first": no StepAction "greet-action" (store it with the task templates, or put it in the same text) [unknown-step-action]',
      },
      {
        path: 'spec.steps[1].ref.name',
        message:
          'step "second": no StepAction "greet-action" (store it with the task templates, or put it in the same text) [unknown-step-action]',
      },
    ]);

    const db = t.db.database.db;
    const loader = new PipelineDefinitionLoader(
      new SqlPipelinesStore(db),
      new TaskTemplatesService(new SqlTaskTemplatesStore(db)),
    );
    const loaded = await loader.load(owner.workspaceId, (pipeline.json() as PipelineDetail).id);
    const [first, second] = loaded.tasks.get('greet-twice')!.spec.steps;
    expect(first).toMatchObject({
      name: 'first',
      image: 'alpine',
      env: [{ name: 'WHO', value: '$(params.name)' }],
      results: [{ name: 'greeting', type: 'string' }],
    });
    expect(first!.ref).toBeUndefined();
    expect(second!.env).toEqual([{ name: 'WHO', value: 'world' }]);
    expect(loaded.pipeline.spec.tasks[1]!.taskSpec!.steps[0]).toMatchObject({
      name: 'only',
      image: 'alpine',
    });
  });

  it("refuses a StepAction that breaks Tekton's rules, and a text of two documents", async () => {
    const bad = STEP_ACTION.replace('echo "hello $WHO"', 'echo "hello $(params.who)"');
    const res = await call('POST', '/api/tasks', owner, { definition: bad, name: 'bad-action' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ details: [{ path: 'spec.script' }] });
    const two = await call('POST', '/api/tasks', owner, {
      definition: `${STEP_ACTION}---\n${TASK}`,
      name: 'two',
    });
    expect(two.statusCode).toBe(400);
    expect((two.json() as { message: string }).message).toBe(
      'definition: a task template is exactly one Tekton Task or StepAction document',
    );
  });

  it('accepts a pipeline whose own text carries the StepAction, as kubectl apply -f would', async () => {
    const text = `${STEP_ACTION.replace('greet-action', 'own-action')}---\n${PIPELINE.replace(
      'ref: {name: greet-action}',
      'ref: {name: own-action}',
    ).replace('taskRef: {name: greet-twice}', 'taskSpec: {steps: [{name: s, ref: {name: own-action}}]}')}`;
    const res = await call('POST', '/api/pipelines', stranger, { name: 'Own action', definition: text });
    expect(res.statusCode, res.body).toBe(201);
    const bad = await call('POST', '/api/pipelines', stranger, {
      name: 'Bad action',
      definition: text.replace('value: $(params.who)', 'value: $(params.nobody)'),
    });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { details: { path: string }[] }).details[0]!.path).toBe(
      'spec.env[0].value (line 14, column 14)',
    );
  });

  it('lists StepActions with the task templates', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tasks', headers: owner.headers });
    const names = (res.json() as TaskTemplate[]).filter((x) => !x.builtIn).map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(['greet-action', 'greet-twice']));
  });
});
