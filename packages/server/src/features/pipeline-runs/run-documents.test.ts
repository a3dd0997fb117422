import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { PipelineRunDetail, PipelineRunView } from '@slipway/contracts';
import { environments } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { FINISHED, insertPipeline, waitFor } from './pipeline-runs.test-helper.js';
import { crdIssues } from './run-export.test-helper.js';

/** Tekton's own examples (tekton-examples/README.md says where each comes from). */
const example = (file: string) => readFileSync(new URL(`./tekton-examples/${file}`, import.meta.url), 'utf8');

const GREET = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: greet }
spec:
  params: [{ name: who, type: string }]
  tasks:
    - name: say
      taskSpec:
        params: [{ name: who }]
        steps: [{ name: echo, image: alpine, script: 'echo "hi $(params.who)"' }]
      params: [{ name: who, value: $(params.who) }]
`;

describe('POST /api/pipelineruns with a Tekton document, GET /api/pipelineruns/:id/export', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db.database);
    await insertPipeline(t.db.database, user.workspaceId, GREET, { name: 'greet' });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: string | object, query = '', contentType = 'application/yaml') =>
    t.app.inject({
      method: 'POST',
      url: `/api/pipelineruns${query}`,
      headers: { ...user.headers, ...(typeof payload === 'string' ? { 'content-type': contentType } : {}) },
      payload,
    });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...user.headers, ...headers } });
  const finished = (id: string) =>
    waitFor(async () => {
      const run = (await get(`/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return FINISHED.includes(run.status) && run;
    }, 20_000);

  it("creates and runs a PipelineRun of the stream's Pipeline and Task (Tekton example), and exports it as Tekton shows it", async () => {
    const res = await post(example('pipelinerun-results.yaml'));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as PipelineRunView;
    expect(created).toMatchObject({
      name: 'sum-three-pipeline-run',
      number: 1,
      params: { first: '2', second: '10', third: '10' },
    });
    const run = await finished(created.id);
    expect(run.status, run.reason ?? '').toBe('succeeded');
    expect(run.results).toEqual({ sum: '22', 'partial-sum': '12', 'all-sum': '22-12' });
    // the pipeline it ran is recorded with the run, not listed among the workspace's pipelines
    const pipelines = (await get('/api/pipelines')).json() as { name: string }[];
    expect(pipelines.map((p) => p.name)).toEqual(['greet']);

    const exported = await get(`/api/pipelineruns/${run.id}/export`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('application/json');
    const doc = exported.json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc).toMatchObject({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: {
        name: 'sum-three-pipeline-run',
        uid: run.id,
        labels: { 'tekton.dev/pipeline': 'sum-three-pipeline' },
      },
      spec: {
        params: [
          { name: 'first', value: '2' },
          { name: 'second', value: '10' },
          { name: 'third', value: '10' },
        ],
        timeouts: { pipeline: '1h0m0s' },
        taskRunTemplate: { serviceAccountName: 'default' },
      },
      status: {
        conditions: [
          {
            type: 'Succeeded',
            status: 'True',
            reason: 'Succeeded',
            message: 'Tasks Completed: 2 (Failed: 0, Cancelled 0), Skipped: 0',
          },
        ],
        childReferences: [
          {
            apiVersion: 'tekton.dev/v1',
            kind: 'TaskRun',
            name: 'sum-three-pipeline-run-first-add',
            pipelineTaskName: 'first-add',
          },
          {
            apiVersion: 'tekton.dev/v1',
            kind: 'TaskRun',
            name: 'sum-three-pipeline-run-second-add',
            pipelineTaskName: 'second-add',
          },
        ],
        results: [
          { name: 'sum', value: '22' },
          { name: 'partial-sum', value: '12' },
          { name: 'all-sum', value: '22-12' },
        ],
      },
    });
    expect(doc.spec.pipelineSpec.tasks.map((task: { name: string }) => task.name)).toEqual([
      'first-add',
      'second-add',
    ]);
    expect(doc.status.pipelineSpec).toEqual(doc.spec.pipelineSpec);
    expect(Date.parse(doc.status.completionTime)).toBeGreaterThanOrEqual(Date.parse(doc.status.startTime));

    const yaml = await get(`/api/pipelineruns/${run.id}/export`, { accept: 'application/yaml' });
    expect(yaml.headers['content-type']).toContain('application/yaml');
    expect(yaml.headers['content-disposition']).toBe('inline; filename="sum-three-pipeline-run.yaml"');
    expect(parse(yaml.body)).toEqual(doc);

    // kubectl create -f of the same file again: the name is taken
    const again = await post(example('pipelinerun-results.yaml'));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('pipelineruns "sum-three-pipeline-run" already exists');
  });

  it('runs a TaskRun (Tekton example) as a one-task run named by its generateName', async () => {
    const res = await post(example('task-result.yaml'));
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as PipelineRunView;
    expect(created.name).toMatch(/^print-date-[a-z0-9]{5}$/);
    const run = await finished(created.id);
    expect(run.status, run.reason ?? '').toBe('succeeded');
    expect(run.taskRuns.map((r) => r.name)).toEqual(['print-date']);
    expect(run.taskRuns[0]!.results!['current-date-unix-timestamp']).toMatch(/^\d+\n?$/);
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.status.childReferences).toEqual([
      {
        apiVersion: 'tekton.dev/v1',
        kind: 'TaskRun',
        name: `${created.name}-print-date`,
        pipelineTaskName: 'print-date',
      },
    ]);
    // run again: the same recorded pipeline, the document's kind kept for the lists and the export
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/pipelineruns/${run.id}/rerun`,
      headers: user.headers,
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({
      name: `${created.name}-2`,
      number: 2,
      pipelineId: run.pipelineId,
      trigger: { kind: 'rerun', document: { kind: 'TaskRun' } },
    });
    const rerun = await finished(again.json().id);
    expect(rerun.status).toBe('succeeded');
    const exported = (await get(`/api/pipelineruns/${rerun.id}/export`)).json();
    expect(crdIssues(exported)).toEqual([]);
    expect(exported.spec.pipelineSpec.tasks[0].name).toBe('print-date');
  });

  it('runs a TaskRun of a task template by taskRef (the built-in run-script), with its params', async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: TaskRun
metadata: { generateName: scripted- }
spec:
  taskRef: { name: run-script, kind: Task }
  params:
    - name: script
      value: echo "from the template"
  workspaces:
    - name: source
      emptyDir: {}
  timeout: 10m
`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ timeoutMs: 600_000, params: { script: 'echo "from the template"' } });
    const run = await finished(res.json().id);
    expect(run.status, run.reason ?? '').toBe('succeeded');
    expect(run.taskRuns.map((r) => r.name)).toEqual(['run-script']);
    const logs = await get(`/api/pipelineruns/${run.id}/logs?task=run-script`);
    expect(logs.body).toContain('from the template');
  });

  it('runs a JSON PipelineRun of a stored pipeline by pipelineRef, with its labels kept for the export', async () => {
    const res = await post({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { name: 'greet-bob', labels: { team: 'web' } },
      spec: {
        pipelineRef: { name: 'greet' },
        params: [{ name: 'who', value: 'bob' }],
        timeouts: { pipeline: '10m' },
        taskRunTemplate: { serviceAccountName: 'default' },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'greet-bob',
      number: 1,
      timeoutMs: 600_000,
      params: { who: 'bob' },
    });
    const run = await finished(res.json().id);
    expect(run.status).toBe('succeeded');
    const doc = (await get(`/api/pipelineruns/${run.id}/export?format=yaml`)).body;
    const exported = parse(doc);
    expect(crdIssues(exported)).toEqual([]);
    expect(exported.metadata.labels).toEqual({ team: 'web', 'tekton.dev/pipeline': 'greet' });
    expect(exported.spec).toMatchObject({ pipelineRef: { name: 'greet' }, timeouts: { pipeline: '10m0s' } });
    // a run of the stored pipeline counts among its runs: the next one is #2
    const next = await post({ pipelineId: run.pipelineId, params: { who: 'ann' } });
    expect(next.json()).toMatchObject({ number: 2, name: 'greet-2' });
  });

  it('refuses what the local executor cannot provide and what the document gets wrong, naming path, line and rule', async () => {
    const claim = await post(example('workspace-from-volumeclaimtemplate.yaml'));
    expect(claim.statusCode).toBe(400);
    expect(claim.json().message).toMatch(
      /^document 2: spec\.workspaces\[0\] \(line 42, column 7\): workspace "ws" is bound to a volumeClaimTemplate, which the local executor cannot provide/,
    );
    const unknown = await post(
      'apiVersion: tekton.dev/v1\nkind: PipelineRun\nmetadata: { name: x }\nspec:\n  pipelineRef:\n    name: nope\n',
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'spec.pipelineRef.name (line 6, column 11): no pipeline "nope" in this workspace',
    );
    expect(unknown.json().details).toEqual([
      {
        path: 'spec.pipelineRef.name (line 6, column 11)',
        message: 'no pipeline "nope" in this workspace [unknown-pipeline]',
      },
    ]);
    const missing = await post({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { name: 'no-params' },
      spec: { pipelineRef: { name: 'greet' } },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details[0]).toMatchObject({ message: 'param "who" is required [missing-param]' });
    const account = await post(
      'apiVersion: tekton.dev/v1\nkind: TaskRun\nmetadata: { name: t }\nspec:\n  serviceAccountName: robot\n  taskSpec: { steps: [{ image: alpine, script: "true" }] }\n',
    );
    expect(account.statusCode).toBe(400);
    expect(account.json().message).toMatch(
      /^spec\.serviceAccountName \(line 5, column 23\): service account "robot" cannot be honoured/,
    );
    const namespace = await post({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { name: 'elsewhere', namespace: 'prod' },
      spec: { pipelineRef: { name: 'greet' }, params: [{ name: 'who', value: 'x' }] },
    });
    expect(namespace.statusCode).toBe(400);
    expect(namespace.json().message).toContain('no environment of this workspace has namespace "prod"');
    // the API's own body still names its own fields
    const own = await post({ pipelineId: 'x', timeoutHours: 500 });
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toMatch(/^body\.timeoutHours: /);
    const query = await post({ pipelineId: 'x' }, '?environmentId=e');
    expect(query.statusCode).toBe(400);
    expect(query.json().details).toEqual([
      {
        path: 'querystring.environmentId',
        message: 'give it in the body (the query parameter is for a Tekton document)',
      },
    ]);
  });

  it("runs a PipelineRun whose pipelineSpec uses the stream's Task (Tekton example)", async () => {
    const res = await post(example('pipelinerun-with-pipelinespec.yaml'));
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished(res.json().id);
    expect(run.status, run.reason ?? '').toBe('succeeded');
    const logs = await get(`/api/pipelineruns/${run.id}/logs?task=echo-good-morning`);
    expect(logs.body).toContain('Good Morning, Bob!');
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.metadata.labels).toEqual({ 'tekton.dev/pipeline': 'pipelinerun-echo-greetings' });
  });

  it("runs an embedded pipelineSpec whose inline tasks use the PipelineRun's params undeclared (Tekton example)", async () => {
    const res = await post(example('propagating_params_implicit_parameters.yaml'));
    expect(res.statusCode, res.body).toBe(201);
    const run = await finished(res.json().id);
    expect(run.status, run.reason ?? '').toBe('succeeded');
    const logs = await get(`/api/pipelineruns/${run.id}/logs?task=echo-hello-finally`);
    expect(logs.body).toContain('And Finally ... Pipeline Hello World!');
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.spec.params).toEqual([{ name: 'HELLO', value: 'Pipeline Hello World!' }]);
    expect(doc.status.childReferences.map((c: { pipelineTaskName: string }) => c.pipelineTaskName)).toEqual([
      'echo-hello',
      'echo-hello-finally',
    ]);
  });

  it("honours a taskRunSpecs timeout over the pipeline task's own", async () => {
    const res = await post(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: short-leash }
spec:
  pipelineSpec:
    tasks:
      - name: nap
        timeout: 60s
        taskSpec: { steps: [{ name: sleep, image: alpine, script: 'sleep 20' }] }
  taskRunSpecs:
    - pipelineTaskName: nap
      timeout: 1s
`);
    expect(res.statusCode, res.body).toBe(201);
    const started = Date.now();
    const run = await finished(res.json().id);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.status).toBe('failed');
    expect(run.taskRuns[0]!.status).toBe('timed_out');
    const doc = (await get(`/api/pipelineruns/${run.id}/export`)).json();
    expect(doc.spec.taskRunSpecs).toEqual([{ pipelineTaskName: 'nap', timeout: '1s' }]);
    expect(doc.status.conditions[0]).toMatchObject({ status: 'False', reason: 'Failed' });
  });

  it('targets the environment whose namespace metadata.namespace names, and refuses one that disagrees', async () => {
    const [teamA, teamB] = [randomUUID(), randomUUID()];
    await t.db.database.db.insert(environments).values([
      { id: teamA, workspaceId: user.workspaceId, name: 'team-a', type: 'staging', namespace: 'team-a' },
      { id: teamB, workspaceId: user.workspaceId, name: 'team-b', type: 'staging', namespace: 'team-b' },
    ]);
    const doc = (name: string) => ({
      apiVersion: 'tekton.dev/v1',
      kind: 'TaskRun',
      metadata: { name, namespace: 'team-a' },
      spec: { taskSpec: { steps: [{ image: 'alpine', script: 'true' }] } },
    });
    const placed = await post(doc('in-team-a'));
    expect(placed.statusCode, placed.body).toBe(201);
    expect(placed.json().environmentId).toBe(teamA);
    const chosen = await post(doc('chosen'), `?environmentId=${teamA}`);
    expect(chosen.json().environmentId).toBe(teamA);
    const clash = await post(doc('clash'), `?environmentId=${teamB}`);
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toContain(
      `the run goes to its environment's namespace "team-b", not "team-a"`,
    );
    await finished(placed.json().id);
    await finished(chosen.json().id);
  });

  it('takes every workspace binding kind on an environment whose cluster runs the tasks, chosen by metadata.namespace', async () => {
    const cluster = await t.app.inject({
      method: 'POST',
      url: '/api/clusters',
      headers: user.headers,
      payload: { name: 'main', type: 'gke', publicRegistryPrefix: 'gcr.io/a' },
    });
    expect(cluster.statusCode, cluster.body).toBe(201);
    const env = await t.app.inject({
      method: 'POST',
      url: '/api/environments',
      headers: user.headers,
      payload: { name: 'on-cluster', type: 'other', clusterId: cluster.json().cluster.id, namespace: 'ci' },
    });
    expect(env.statusCode, env.body).toBe(201);
    const bindings = [
      { name: 'claim', persistentVolumeClaim: { claimName: 'build-cache' } },
      {
        name: 'fresh',
        volumeClaimTemplate: {
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      },
      { name: 'csi', csi: { driver: 'secrets-store.csi.k8s.io' } },
      { name: 'projected', projected: { sources: [{ configMap: { name: 'settings' } }] } },
      { name: 'scratch', emptyDir: {} },
    ];
    const names = bindings.map((b) => b.name);
    const res = await post({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { name: 'on-cluster', namespace: 'ci' },
      spec: {
        workspaces: bindings,
        pipelineSpec: {
          workspaces: names.map((name) => ({ name })),
          tasks: [
            {
              name: 'use',
              workspaces: names.map((name) => ({ name, workspace: name })),
              taskSpec: {
                workspaces: names.map((name) => ({ name })),
                steps: [{ name: 'ls', image: 'alpine', script: 'ls /workspace' }],
              },
            },
          ],
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().environmentId).toBe(env.json().id);
    await t.app.inject({
      method: 'POST',
      url: `/api/pipelineruns/${res.json().id}/abort`,
      headers: user.headers,
    });
    const doc = (await get(`/api/pipelineruns/${res.json().id}/export`)).json();
    expect(crdIssues(doc)).toEqual([]);
    expect(doc.spec.workspaces).toEqual(bindings);
  });

  it('keeps runs to their workspace and audits a document run as the create route does', async () => {
    const other = await createSignedInUser(t.app, t.db.database);
    const res = await post(
      'apiVersion: tekton.dev/v1\nkind: TaskRun\nmetadata: { name: audited }\nspec:\n  taskSpec: { steps: [{ image: alpine, script: "true" }] }\n',
      '',
      // a document sent as plain text is read as YAML too
      'text/plain',
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as PipelineRunView).id;
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `/api/pipelineruns/${id}/export`,
      headers: other.headers,
    });
    expect(elsewhere.statusCode).toBe(404);
    const audit = await get('/api/audit?action=pipeline_run.create');
    expect(audit.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'pipeline_run.create', targetId: id })]),
    );
    await finished(id);
  });
});
