import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskTemplate } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { BUILT_IN_TASKS } from './built-in-tasks/index.js';
import { seedBuiltInTasks } from './seed-built-in-tasks.js';
import { SqlTaskTemplatesStore } from './task-templates-store.js';

const GREET = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: greet
spec:
  params:
    - name: who
      default: world
  steps:
    - name: say
      image: alpine
      script: echo hello $(params.who)
`;
const PIPELINE_USING_GREET = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: {name: greeting}
spec:
  tasks:
    - name: hi
      taskRef: {name: greet}
`;

describe('task templates', () => {
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

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('lists the built-ins, seeded once however often the seed runs', async () => {
    await seedBuiltInTasks(new SqlTaskTemplatesStore(t.db.database.db));
    const res = await call('GET', '/api/tasks', owner);
    expect(res.statusCode).toBe(200);
    const builtIns = (res.json() as TaskTemplate[]).filter((x) => x.builtIn);
    expect(builtIns.map((x) => x.name).sort()).toEqual(BUILT_IN_TASKS.map((x) => x.name).sort());
    const one = await call('GET', `/api/tasks/${builtIns[0]!.id}`, owner);
    expect(one.json()).toMatchObject({ builtIn: true, format: 'yaml' });
  });

  it('keeps built-ins read-only (403)', async () => {
    const builtIn = ((await call('GET', '/api/tasks', owner)).json() as TaskTemplate[]).find(
      (x) => x.builtIn,
    )!;
    for (const res of [
      await call('PUT', `/api/tasks/${builtIn.id}`, owner, { description: 'mine now' }),
      await call('DELETE', `/api/tasks/${builtIn.id}`, owner),
    ]) {
      expect(res.statusCode).toBe(403);
      expect((res.json() as { message: string }).message).toBe('Built-in task templates cannot be changed');
    }
  });

  it('creates a workspace task that pipelines can reference, only in that workspace', async () => {
    const res = await call('POST', '/api/tasks', owner, { definition: GREET });
    expect(res.statusCode, res.body).toBe(201);
    const task = res.json() as TaskTemplate;
    expect(task).toMatchObject({ name: 'greet', builtIn: false, version: 1, definition: GREET });
    const pipeline = await call('POST', '/api/pipelines', owner, {
      name: 'Greeting',
      definition: PIPELINE_USING_GREET,
    });
    expect(pipeline.statusCode, pipeline.body).toBe(201);
    const elsewhere = await call('POST', '/api/pipelines', stranger, {
      name: 'Greeting',
      definition: PIPELINE_USING_GREET,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect((await call('GET', `/api/tasks/${task.id}`, stranger)).statusCode).toBe(404);
    expect((await call('POST', '/api/tasks', owner, { definition: GREET })).statusCode).toBe(409);
  });

  it('validates a task: path and message in the 400', async () => {
    const bad = GREET.replace('$(params.who)', '$(params.nobody)');
    const res = await call('POST', '/api/tasks', owner, { definition: bad, name: 'bad' });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { message: string; details: { path: string; message: string }[] };
    expect(body.message).toContain('spec.steps[0].script');
    expect(body.message).toContain('nobody');
    expect(body.details[0]!.path).toBe('spec.steps[0].script');
    const noImage = GREET.replace('      image: alpine\n', '');
    expect((await call('POST', '/api/tasks', owner, { definition: noImage, name: 'noimg' })).statusCode).toBe(
      400,
    );
    const builtInName = await call('POST', '/api/tasks', owner, { definition: GREET, name: 'git-clone' });
    expect(builtInName.statusCode).toBe(409);
  });

  it('updates (new version when the text changes) and deletes a workspace task', async () => {
    const created = (
      await call('POST', '/api/tasks', owner, { definition: GREET.replace('name: greet', 'name: greet2') })
    ).json() as TaskTemplate;
    const changed = GREET.replace('name: greet', 'name: greet2').replace('hello', 'hi');
    const res = await call('PUT', `/api/tasks/${created.id}`, owner, { definition: changed });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ version: 2, definition: changed });
    expect((await call('PUT', `/api/tasks/${created.id}`, owner, { definition: 'kind: [' })).statusCode).toBe(
      400,
    );
    expect((await call('DELETE', `/api/tasks/${created.id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/tasks/${created.id}`, owner)).statusCode).toBe(404);
  });
});
