import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PipelineRunDetail } from '@slipway/contracts';
import { secrets } from '../../platform/database/schema.js';
import { Keys, loadMasterKey } from '../../platform/keys.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, insertPipeline, waitFor } from './pipeline-runs.test-helper.js';

const HELLO = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: hello }
spec:
  params: [{ name: who, type: string }]
  results: [{ name: shout, value: $(tasks.upper.results.text) }]
  workspaces: [{ name: shared }]
  tasks:
    - name: greet
      workspaces: [{ name: ws, workspace: shared }]
      taskSpec:
        workspaces: [{ name: ws }]
        results: [{ name: text }]
        steps:
          - name: say
            image: alpine
            script: |
              echo "hello $(params.who)"
              printf 'hello %s' "$(params.who)" > $(results.text.path)
              echo from-greet > $(workspaces.ws.path)/file
    - name: upper
      params: [{ name: in, value: $(tasks.greet.results.text) }]
      taskSpec:
        params: [{ name: in }]
        results: [{ name: text }]
        steps:
          - name: up
            image: alpine
            script: printf '%s' "$(params.in)" | tr a-z A-Z > $(results.text.path)
    - name: check
      runAfter: [upper]
      workspaces: [{ name: ws, workspace: shared }]
      taskSpec:
        workspaces: [{ name: ws }]
        steps:
          - { name: cat, image: alpine, script: 'cat $(workspaces.ws.path)/file' }
          - { name: fail, image: alpine, script: 'if [ "$(params.who)" = bad ]; then echo boom >&2; exit 3; fi' }
`;

const SLEEP = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: sleepy }
spec:
  tasks:
    - name: nap
      taskSpec: { steps: [{ name: sleep, image: alpine, script: 'echo going; sleep 30' }] }
`;

const SECRET = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: secretive }
spec:
  tasks:
    - name: use
      taskSpec:
        steps:
          - name: show
            image: alpine
            env: [{ name: TOKEN, valueFrom: { secretKeyRef: { name: deploy, key: token } } }]
            script: 'echo "token=$TOKEN"; test "$TOKEN" = s3cr3t-value'
`;

const SECRET_FILES = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: secret-files }
spec:
  workspaces: [{ name: creds }]
  tasks:
    - name: read
      workspaces: [{ name: c, workspace: creds }]
      taskSpec:
        workspaces: [{ name: c }]
        steps:
          - name: show
            image: alpine
            script: |
              echo "file=$(cat $(workspaces.c.path)/token) in $(workspaces.c.path)"
              stat -c 'mode=%a' $(workspaces.c.path)/token
              test "$(cat $(workspaces.c.path)/token)" = f1le-s3cret
              if echo changed > $(workspaces.c.path)/token 2>/dev/null; then echo "wrote a secret workspace"; exit 1; fi
              echo read-only
`;

describe('pipeline runs API (LocalExecutor)', () => {
  let t: TestApp;
  let user: TestUser;
  let hello: string;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
    hello = await insertPipeline(t.db.database, user.workspaceId, HELLO, { name: 'hello' });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (method: 'GET' | 'POST', url: string, payload?: object, headers = user.headers) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  const finished = (id: string, timeoutMs = 15_000) =>
    waitFor(async () => {
      const run = (await inject('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(run.status) && run;
    }, timeoutMs);

  it('runs a 3-task pipeline to success with params, results, workspaces and logs', async () => {
    const res = await inject('POST', '/api/pipelineruns', { pipelineId: hello, params: { who: 'world' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'pending', number: 1, timeoutMs: 3_600_000, name: 'hello-1' });
    const run = await finished(res.json().id);
    expect(run).toMatchObject({
      status: 'succeeded',
      reason: 'Succeeded',
      results: { shout: 'HELLO WORLD' },
    });
    expect(run.taskRuns.map((r) => [r.name, r.status])).toEqual([
      ['greet', 'succeeded'],
      ['upper', 'succeeded'],
      ['check', 'succeeded'],
    ]);
    expect(run.taskRuns[0]!.results).toEqual({ text: 'hello world' });
    expect(run.taskRuns[2]!.steps.map((s) => [s.name, s.image, s.status, s.exitCode])).toEqual([
      ['cat', 'alpine', 'succeeded', 0],
      ['fail', 'alpine', 'succeeded', 0],
    ]);
    const logs = await inject('GET', `/api/pipelineruns/${run.id}/logs?task=greet&step=say`);
    expect(logs.headers['content-type']).toContain('text/plain');
    expect(logs.body).toMatch(/^Running step "say" \(image alpine.*\nhello world\n/);
    const check = await inject('GET', `/api/pipelineruns/${run.id}/logs?task=check`);
    expect(check.body).toContain('from-greet');
    const all = await inject('GET', `/api/pipelineruns/${run.id}/logs`);
    expect(all.body).toContain('[greet/say] hello world');
    const lines = check.body.trimEnd().split('\n');
    const offset = await inject(
      'GET',
      `/api/pipelineruns/${run.id}/logs?task=check&offset=${lines.length - 1}`,
    );
    expect(offset.body).toBe(`${lines.at(-1)}\n`);
    expect(offset.headers['x-next-offset']).toBe(String(lines.length));

    const list = await inject('GET', `/api/pipelineruns?status=completed&pipelineId=${hello}`);
    expect(list.headers['x-total-count']).toBe('1');
    expect((list.json() as { id: string }[])[0]!.id).toBe(run.id);

    const rerun = await inject('POST', `/api/pipelineruns/${run.id}/rerun`);
    expect(rerun.statusCode).toBe(201);
    expect(rerun.json()).toMatchObject({
      number: 2,
      rerunOf: run.id,
      params: { who: 'world' },
      trigger: { kind: 'rerun', id: run.id },
    });
    await finished(rerun.json().id);
  });

  it('ends a run with a failing step as failed with the reason', async () => {
    const res = await inject('POST', '/api/pipelineruns', { pipelineId: hello, params: { who: 'bad' } });
    const run = await finished(res.json().id);
    expect(run.status).toBe('failed');
    expect(run.reason).toMatch(/^task "check" failed: .*fail/);
    expect(run.taskRuns[2]!.steps[1]).toMatchObject({ name: 'fail', status: 'failed', exitCode: 3 });
    const logs = await inject('GET', `/api/pipelineruns/${run.id}/logs?task=check&step=fail`);
    expect(logs.body).toContain('boom');
  });

  it('answers 400 naming a bad param, 404 across workspaces, 409 for rollback without a rollback pipeline', async () => {
    const bad = await inject('POST', '/api/pipelineruns', { pipelineId: hello, params: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('params.who');
    const env = await inject('POST', '/api/pipelineruns', {
      pipelineId: hello,
      params: { who: 'x' },
      environmentId: 'missing',
    });
    expect(env.statusCode).toBe(400);
    expect(env.json().message).toContain('environmentId');
    const other = await createSignedInUser(t.app, t.db.database);
    const [first] = (await inject('GET', '/api/pipelineruns?_sort=number&_order=asc')).json() as {
      id: string;
    }[];
    expect((await inject('GET', `/api/pipelineruns/${first!.id}`, undefined, other.headers)).statusCode).toBe(
      404,
    );
    expect(
      (await inject('POST', '/api/pipelineruns', { pipelineId: hello, params: { who: 'x' } }, other.headers))
        .statusCode,
    ).toBe(404);
    const rollback = await inject('POST', `/api/pipelineruns/${first!.id}/rollback`);
    expect(rollback.statusCode).toBe(409);
    expect(rollback.json().message).toBe('This pipeline has no rollback pipeline');
  });

  it('rolls back with the previous successful params', async () => {
    const target = await insertPipeline(t.db.database, user.workspaceId, HELLO, { name: 'undo' });
    const deploy = await insertPipeline(t.db.database, user.workspaceId, HELLO, {
      name: 'deploy',
      rollbackPipelineId: target,
    });
    const good = await inject('POST', '/api/pipelineruns', { pipelineId: deploy, params: { who: 'v1' } });
    await finished(good.json().id);
    const broken = await inject('POST', '/api/pipelineruns', { pipelineId: deploy, params: { who: 'bad' } });
    await finished(broken.json().id);
    const rollback = await inject('POST', `/api/pipelineruns/${broken.json().id}/rollback`);
    expect(rollback.statusCode).toBe(201);
    expect(rollback.json()).toMatchObject({
      pipelineId: target,
      params: { who: 'v1' },
      rollbackOf: broken.json().id,
    });
    expect((await finished(rollback.json().id)).status).toBe('succeeded');
  });

  it('gives steps secret values from the workspace secrets and masks them in the logs', async () => {
    const keys = new Keys(loadMasterKey(t.config.masterKey, t.config.dataDir));
    await t.db.database.db.insert(secrets).values({
      id: randomUUID(),
      workspaceId: user.workspaceId,
      name: 'deploy',
      valuesEncrypted: { token: keys.encrypt('s3cr3t-value') },
    });
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, SECRET);
    const res = await inject('POST', '/api/pipelineruns', { pipelineId });
    const run = await finished(res.json().id);
    expect(run.status).toBe('succeeded');
    const logs = await inject('GET', `/api/pipelineruns/${run.id}/logs?task=use`);
    expect(logs.body).toContain('token=***');
    expect(logs.body).not.toContain('s3cr3t-value');
  });

  it('mounts a secret workspace as files, masks the values, and removes the run directory at the end', async () => {
    const keys = new Keys(loadMasterKey(t.config.masterKey, t.config.dataDir));
    await t.db.database.db.insert(secrets).values({
      id: randomUUID(),
      workspaceId: user.workspaceId,
      name: 'files',
      valuesEncrypted: { token: keys.encrypt('f1le-s3cret') },
    });
    const pipelineId = await insertPipeline(t.db.database, user.workspaceId, SECRET_FILES);
    const res = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [{ name: 'creds', secret: { secretName: 'files' } }],
    });
    expect(res.statusCode).toBe(201);
    const run = await finished(res.json().id);
    expect(run.status).toBe('succeeded');
    const runDir = path.join(t.config.dataDir, 'runs', run.id);
    const logs = (await inject('GET', `/api/pipelineruns/${run.id}/logs?task=read`)).body;
    // Tekton's path inside the step's sandbox, read-only as a secret workspace is
    expect(logs).toContain('file=*** in /workspace/c');
    expect(logs).toContain('read-only');
    expect(logs).toContain('mode=600');
    expect(logs).not.toContain('f1le-s3cret');
    // the run's workspaces and results are gone; its logs stay
    expect(existsSync(runDir)).toBe(false);
    expect(existsSync(path.join(t.config.dataDir, 'runs'))).toBe(true);

    const missing = await inject('POST', '/api/pipelineruns', {
      pipelineId,
      workspaces: [{ name: 'creds', secret: { secretName: 'nope' } }],
    });
    const failed = await finished(missing.json().id);
    expect(failed).toMatchObject({
      status: 'failed',
      reason: 'workspaces: workspace "creds": secret "nope" not found',
    });
    expect(existsSync(path.join(t.config.dataDir, 'runs', failed.id))).toBe(false);
  });

  it('aborts a sleeping step: the run is cancelled within seconds', async () => {
    const sleepy = await insertPipeline(t.db.database, user.workspaceId, SLEEP);
    const res = await inject('POST', '/api/pipelineruns', { pipelineId: sleepy });
    const id = res.json().id as string;
    await waitFor(async () => (await inject('GET', `/api/pipelineruns/${id}/logs`)).body.includes('going'));
    const started = Date.now();
    const abort = await inject('POST', `/api/pipelineruns/${id}/abort`);
    expect(abort.statusCode).toBe(200);
    const run = await finished(id, 5000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run).toMatchObject({ status: 'cancelled' });
    expect(run.taskRuns[0]).toMatchObject({ status: 'cancelled' });
    expect((await inject('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(409);
  });

  it('lists runs queued within a date range (from inclusive, to exclusive) and names a bad bound', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const res = await inject('POST', '/api/pipelineruns', { pipelineId: hello, params: { who: 'range' } });
    const id = res.json().id as string;
    const after = new Date(Date.now() + 1000).toISOString();
    const ids = async (q: string) => {
      const list = await inject('GET', `/api/pipelineruns?_start=0&_end=100&${q}`);
      expect(list.statusCode).toBe(200);
      return {
        ids: (list.json() as { id: string }[]).map((r) => r.id),
        total: list.headers['x-total-count'],
      };
    };
    const within = await ids(`from=${encodeURIComponent(before)}&to=${encodeURIComponent(after)}`);
    expect(within.ids).toContain(id);
    expect(Number(within.total)).toBe(within.ids.length);
    expect((await ids(`from=${encodeURIComponent(after)}`)).ids).toEqual([]);
    expect((await ids(`to=${encodeURIComponent(before)}`)).ids).not.toContain(id);
    const bad = await inject('GET', '/api/pipelineruns?from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('from must be an ISO 8601 date-time');
    await finished(id);
  });
});
