import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_HEADER, type PipelineDetail } from '@slipway/contracts';
import { pipelineRuns } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { memberOf } from './catalogue-test-helpers.js';

const BUILD = `# kept exactly, comments included
apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: build
spec:
  params:
    - name: repo
      type: string
  workspaces:
    - name: src
  tasks:
    - name: clone
      taskRef:
        name: git-clone
      params:
        - name: url
          value: $(params.repo)
      workspaces:
        - name: output
          workspace: src
    - name: test
      runAfter: [clone]
      taskRef:
        name: run-script
      params:
        - name: script
          value: echo $(tasks.clone.results.commit)
      workspaces:
        - name: source
          workspace: src
`;

const WITH_OWN_TASK = `apiVersion: tekton.dev/v1
kind: Task
metadata: {name: hello}
spec:
  steps:
    - name: say
      image: alpine
      script: echo hi
---
apiVersion: tekton.dev/v1
kind: Pipeline
metadata: {name: hi}
spec:
  tasks:
    - name: a
      taskRef: {name: hello}
`;

const inline = (name: string, runAfter: string[] = []) =>
  `    - name: ${name}\n      runAfter: [${runAfter.join(', ')}]\n      taskSpec:\n        steps:\n          - image: alpine\n            script: echo ${name}\n`;
const CYCLE = `apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: {name: loop}\nspec:\n  tasks:\n${inline('a', ['b'])}${inline('b', ['a'])}`;
const UNKNOWN_REF = BUILD.replace('name: run-script', 'name: no-such-task');
const JSON_TEXT =
  '{ "apiVersion":"tekton.dev/v1",\n  "kind": "Pipeline", "metadata": {"name":"j"},\n  "spec": {"tasks": [{"name":"only","taskSpec":{"steps":[{"image":"alpine","script":"echo  json"}]}}]} }\n';

describe('pipelines and pipeline templates', () => {
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
  const create = async (body: object, who = owner, base = '/api/pipelines') => {
    const res = await call('POST', base, who, body);
    return res;
  };

  it('creates a pipeline using built-in tasks and exports its text unchanged', async () => {
    const res = await create({ name: 'Build', definition: BUILD, description: 'clone and test' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as PipelineDetail;
    expect(created).toMatchObject({
      name: 'Build',
      version: 1,
      kind: 'pipeline',
      format: 'yaml',
      definition: BUILD,
    });
    expect(created.versions).toHaveLength(1);
    const exported = await call('GET', `/api/pipelines/${created.id}/export`, owner);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(exported.rawPayload.equals(Buffer.from(BUILD, 'utf8'))).toBe(true);
  });

  it('stores JSON as JSON, byte for byte', async () => {
    const res = await create({ name: 'Json one', definition: JSON_TEXT });
    expect(res.statusCode, res.body).toBe(201);
    const { id, format } = res.json() as PipelineDetail;
    expect(format).toBe('json');
    const exported = await call('GET', `/api/pipelines/${id}/export`, owner);
    expect(exported.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(exported.body).toBe(JSON_TEXT);
  });

  it('accepts Tasks in the same YAML stream', async () => {
    const res = await create({ name: 'Own task', definition: WITH_OWN_TASK });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a cycle, naming the path and the rule, and stores nothing', async () => {
    const res = await create({ name: 'Loop', definition: CYCLE });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { message: string; details: { path: string; message: string }[] };
    expect(body.message).toMatch(/^spec\.tasks\[\d\].*cycle: /);
    expect(body.details[0]!.message).toContain('[cycle]');
    const list = await call('GET', '/api/pipelines?name=Loop', owner);
    expect(list.json()).toEqual([]);
  });

  it('refuses an unknown taskRef naming its path', async () => {
    const res = await create({ name: 'Unknown', definition: UNKNOWN_REF });
    expect(res.statusCode).toBe(400);
    const { message } = res.json() as { message: string };
    expect(message).toContain('spec.tasks[1].taskRef');
    expect(message).toContain('no-such-task');
  });

  it('names line and column of a YAML syntax error', async () => {
    const res = await create({ name: 'Broken', definition: 'apiVersion: tekton.dev/v1\nkind: [Pipeline\n' });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { message: string }).message).toMatch(/line \d+, column \d+/);
  });

  it('refuses a Task-only definition and a bad name', async () => {
    const taskOnly = WITH_OWN_TASK.split('---')[0]!;
    expect((await create({ name: 'Only task', definition: taskOnly })).statusCode).toBe(400);
    const badName = await create({ name: '-bad-', definition: BUILD });
    expect(badName.statusCode).toBe(400);
  });

  it('refuses a duplicate name with 409', async () => {
    await create({ name: 'Twice', definition: BUILD });
    const res = await create({ name: 'Twice', definition: BUILD });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { message: string }).message).toBe('A pipeline with this name already exists');
  });

  it('keeps versions: a new definition is the next version, the old one stays readable', async () => {
    const { id } = (await create({ name: 'Versioned', definition: BUILD })).json() as PipelineDetail;
    const changed = BUILD.replace('echo $(tasks', 'echo commit $(tasks');
    const bad = await call('PUT', `/api/pipelines/${id}`, owner, { definition: CYCLE });
    expect(bad.statusCode).toBe(400);
    const res = await call('PUT', `/api/pipelines/${id}`, owner, { definition: changed, description: 'v2' });
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json() as PipelineDetail;
    expect(detail).toMatchObject({ version: 2, definition: changed, description: 'v2' });
    expect(detail.versions.map((v) => v.version)).toEqual([2, 1]);
    const v1 = await call('GET', `/api/pipelines/${id}/versions/1`, owner);
    expect(v1.json()).toMatchObject({ version: 1, definition: BUILD });
    expect((await call('GET', `/api/pipelines/${id}/versions/3`, owner)).statusCode).toBe(404);
    const renamed = await call('PUT', `/api/pipelines/${id}`, owner, { name: 'Versioned two' });
    expect(renamed.json()).toMatchObject({ name: 'Versioned two', version: 2 });
  });

  it('lists with paging, sorting, the name filter and X-Total-Count', async () => {
    for (const n of ['Page a', 'Page b', 'Page c']) await create({ name: n, definition: BUILD });
    const res = await call('GET', '/api/pipelines?name=page&_start=1&_end=3&_sort=name&_order=desc', owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('3');
    expect((res.json() as PipelineDetail[]).map((p) => p.name)).toEqual(['Page b', 'Page a']);
  });

  it('hides another workspace: 404 for its ids', async () => {
    const { id } = (await create({ name: 'Private', definition: BUILD })).json() as PipelineDetail;
    for (const url of [
      `/api/pipelines/${id}`,
      `/api/pipelines/${id}/export`,
      `/api/pipelines/${id}/versions/1`,
    ])
      expect((await call('GET', url, stranger)).statusCode).toBe(404);
    expect((await call('PUT', `/api/pipelines/${id}`, stranger, { description: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `/api/pipelines/${id}`, stranger)).statusCode).toBe(404);
    expect((await call('GET', '/api/pipelines?name=Private', stranger)).json()).toEqual([]);
  });

  it('lets a viewer read but not create (403)', async () => {
    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    expect((await call('GET', '/api/pipelines', viewer)).statusCode).toBe(200);
    expect((await create({ name: 'By viewer', definition: BUILD }, viewer)).statusCode).toBe(403);
  });

  it('refuses to delete while a run is pending, then deletes', async () => {
    const { id } = (await create({ name: 'Busy', definition: BUILD })).json() as PipelineDetail;
    const runId = randomUUID();
    await t.db.database.db.insert(pipelineRuns).values({
      id: runId,
      workspaceId: owner.workspaceId,
      pipelineId: id,
      pipelineVersion: 1,
      number: 1,
      name: 'busy-1',
      status: 'pending',
      timeoutMs: 3_600_000,
      trigger: { kind: 'user', id: owner.userId },
    });
    expect((await call('DELETE', `/api/pipelines/${id}`, owner)).statusCode).toBe(409);
    await t.db.database.db
      .update(pipelineRuns)
      .set({ status: 'succeeded' })
      .where(eq(pipelineRuns.id, runId));
    expect((await call('DELETE', `/api/pipelines/${id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/pipelines/${id}`, owner)).statusCode).toBe(404);
  });

  it('keeps templates apart and instantiates one as a pipeline', async () => {
    const res = await create({ name: 'Build template', definition: BUILD }, owner, '/api/templates');
    expect(res.statusCode, res.body).toBe(201);
    const template = res.json() as PipelineDetail;
    expect(template.kind).toBe('template');
    expect((await call('GET', `/api/pipelines/${template.id}`, owner)).statusCode).toBe(404);
    const made = await call('POST', `/api/templates/${template.id}/instantiate`, owner, {
      name: 'From template',
    });
    expect(made.statusCode, made.body).toBe(201);
    const pipeline = made.json() as PipelineDetail;
    expect(pipeline).toMatchObject({
      kind: 'pipeline',
      name: 'From template',
      version: 1,
      definition: BUILD,
    });
    const again = await call('POST', `/api/templates/${template.id}/instantiate`, owner, {
      name: 'From template',
    });
    expect(again.statusCode).toBe(409);
    const other = await call('POST', `/api/templates/${template.id}/instantiate`, stranger, {
      name: 'Steal',
    });
    expect(other.statusCode).toBe(404);
  });

  it('gives the run engine the parsed pipeline with its tasks', async () => {
    const { PipelineDefinitionLoader } = await import('./pipeline-definition-loader.js');
    const { SqlPipelinesStore } = await import('./pipelines-store.js');
    const { TaskTemplatesService } = await import('./task-templates-service.js');
    const { SqlTaskTemplatesStore } = await import('./task-templates-store.js');
    const db = t.db.database.db;
    const loader = new PipelineDefinitionLoader(
      new SqlPipelinesStore(db),
      new TaskTemplatesService(new SqlTaskTemplatesStore(db)),
    );
    const { id } = (await create({ name: 'Loaded', definition: WITH_OWN_TASK })).json() as PipelineDetail;
    const loaded = await loader.load(owner.workspaceId, id);
    expect(loaded).toMatchObject({ version: 1, text: WITH_OWN_TASK, format: 'yaml' });
    expect(loaded.pipeline.spec.tasks.map((x) => x.name)).toEqual(['a']);
    expect([...loaded.tasks.keys()]).toEqual(expect.arrayContaining(['hello', 'git-clone', 'buildah']));
    await expect(loader.load(stranger.workspaceId, id)).rejects.toThrow('Pipeline not found');
  });

  it('checks the rollback pipeline belongs to the workspace', async () => {
    const { id: target } = (
      await create({ name: 'Rollback target', definition: BUILD })
    ).json() as PipelineDetail;
    const ok = await create({ name: 'With rollback', definition: BUILD, rollbackPipelineId: target });
    expect(ok.json()).toMatchObject({ rollbackPipelineId: target });
    const res = await create(
      { name: 'Bad rollback', definition: BUILD, rollbackPipelineId: target },
      stranger,
    );
    expect(res.statusCode).toBe(400);
  });
});
