import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FINISHED_RUN_STATUSES,
  type Cluster,
  type EnvironmentDetail,
  type PipelineRunDetail,
} from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { attachCluster, type AttachedCluster } from '../../clusters/attached-agent.test-helper.js';
import { insertPipeline, waitFor } from '../../pipeline-runs/pipeline-runs.test-helper.js';
import { RUN_ID_LABEL } from './pipeline-run-object.js';
import { TektonPlayer, tektonCrds } from './tekton-controller.test-helper.js';
import { pipelineRunIssues } from './tekton-schemas.js';

const NS = 'ci';

/** A pipeline in the shape of Tekton's docs (pipelines.md: results passed on, a finally task). */
/** A step that reads a secret (tektoncd/pipeline docs/tasks.md, "Specifying environment variables"). */
const secretPipeline = (secret: string) => `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: with-secret }
spec:
  tasks:
    - name: use
      taskSpec:
        steps:
          - name: login
            image: alpine:3.20
            env:
              - name: TOKEN
                valueFrom:
                  secretKeyRef: { name: ${secret}, key: token }
            script: echo "token is $TOKEN"
`;

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: build-and-test }
spec:
  params:
    - name: greeting
      type: string
      default: hello
  results:
    - name: digest
      value: $(tasks.build.results.digest)
  tasks:
    - name: build
      params:
        - { name: greeting, value: $(params.greeting) }
      taskSpec:
        params:
          - name: greeting
        results:
          - name: digest
        steps:
          - name: compile
            image: alpine:3.20
            script: |
              echo "$(params.greeting) from compile"
              printf sha256:abc > $(results.digest.path)
          - name: package
            image: alpine:3.20
            script: echo packaged
    - name: test
      runAfter: [build]
      taskSpec:
        steps:
          - name: unit
            image: alpine:3.20
            script: echo testing
  finally:
    - name: notify
      taskSpec:
        steps:
          - name: send
            image: alpine:3.20
            script: echo done
`;

describe('handing a run to Tekton on a cluster that has it (no Tekton controller runs: the test plays it)', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;
  let environmentId: string;
  let pipelineId: string;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner, { name: 'tekton' }, { customResourceDefinitions: tektonCrds() });
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    // the agent found tekton.dev through discovery and reported Tekton Pipelines (add-on 1)
    const detail = (await call('GET', `/api/clusters/${cluster.clusterId}`)).json() as Cluster;
    expect(detail.installedResources).toContain(1);
    const envs = (await call('GET', '/api/environments?name=staging')).json() as EnvironmentDetail[];
    environmentId = envs[0]!.id;
    const bound = await call('PUT', `/api/environments/${environmentId}`, {
      clusterId: cluster.clusterId,
      namespace: NS,
    });
    expect(bound.statusCode, bound.body).toBe(200);
    pipelineId = await insertPipeline(t.db.database, owner.workspaceId, PIPELINE, { name: 'build-and-test' });
  });
  afterAll(async () => {
    await cluster.close();
    await t.close();
  });

  const start = async (body: object = {}) => {
    const res = await call('POST', '/api/pipelineruns', { pipelineId, environmentId, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const detail = async (id: string) =>
    (await call('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
  const finished = (id: string) =>
    waitFor(async () => {
      const r = await detail(id);
      return (FINISHED_RUN_STATUSES as readonly string[]).includes(r.status) && r;
    }, 20_000);
  /** The PipelineRun Slipway applied for a run, once it is there. */
  const handedOff = async (id: string) => {
    let name = '';
    await expect
      .poll(
        () =>
          (name =
            (cluster.api
              .list('tekton.dev/v1', 'PipelineRun', NS)
              .find((o) => (o.metadata.labels as Record<string, string> | undefined)?.[RUN_ID_LABEL] === id)
              ?.metadata.name as string | undefined) ?? ''),
        { timeout: 10_000 },
      )
      .not.toBe('');
    return new TektonPlayer(cluster.api, NS, name);
  };

  it('applies a valid PipelineRun, and follows its TaskRuns, steps, logs and results into the run', async () => {
    const id = await start({ params: { greeting: 'hi' }, timeoutHours: 2 });
    const tekton = await handedOff(id);
    const pr = tekton.object;
    // what was sent passes the CRD schemas; it is labelled with the run and carries its timeout
    expect(pipelineRunIssues(pr)).toEqual([]);
    expect(pr.spec).toMatchObject({
      params: [{ name: 'greeting', value: 'hi' }],
      timeouts: { pipeline: '2h0m0s' },
    });
    expect((pr.metadata.managedFields as { manager: string }[]).map((f) => f.manager)).toContain('slipway');

    const build = tekton.startTask('build', [
      { name: 'compile', log: 'hi from compile\n' },
      { name: 'package', log: 'packaged\n' },
    ]);
    await expect
      .poll(async () => (await detail(id)).taskRuns.find((r) => r.name === 'build')?.status, {
        timeout: 10_000,
      })
      .toBe('running');
    tekton.finishTask(build, [{ name: 'compile' }, { name: 'package' }], {
      results: [
        { name: 'digest', value: 'sha256:abc' },
        { name: 'files', value: ['app.tar', 'app.sbom'] },
      ],
    });
    const test = tekton.startTask('test', [{ name: 'unit', log: 'testing\n' }]);
    tekton.finishTask(test, [{ name: 'unit' }]);
    const notify = tekton.startTask('notify', [{ name: 'send', log: 'done\n' }]);
    tekton.finishTask(notify, [{ name: 'send' }]);
    tekton.end(
      {
        status: 'True',
        reason: 'Succeeded',
        message: 'Tasks Completed: 3 (Failed: 0, Cancelled 0), Skipped: 0',
      },
      { results: [{ name: 'digest', value: 'sha256:abc' }] },
    );

    const done = await finished(id);
    expect(done.status, JSON.stringify(done)).toBe('succeeded');
    expect(done.results).toEqual({ digest: 'sha256:abc' });
    expect(done.message).toContain(`Handed to Tekton as PipelineRun ${NS}/${tekton.name}`);
    const rows = Object.fromEntries(done.taskRuns.map((r) => [r.name, r]));
    expect(Object.keys(rows).sort()).toEqual(['build', 'notify', 'test']);
    expect(rows.build).toMatchObject({
      status: 'succeeded',
      results: { digest: 'sha256:abc', files: ['app.tar', 'app.sbom'] },
    });
    expect(rows.notify!.isFinally).toBe(true);
    expect(rows.build!.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
      ['compile', 'succeeded', 0],
      ['package', 'succeeded', 0],
    ]);
    const logs = await call('GET', `/api/pipelineruns/${id}/logs?task=build`);
    expect(logs.body).toContain('hi from compile');
    expect(logs.body).toContain('packaged');
  });

  it('records a failed step and a skipped task as Tekton reports them, and the run fails with its reason', async () => {
    const id = await start();
    const tekton = await handedOff(id);
    const build = tekton.startTask('build', [{ name: 'compile', log: 'boom\n' }, { name: 'package' }]);
    tekton.finishTask(build, [
      { name: 'compile', exitCode: 2 },
      { name: 'package', terminationReason: 'Skipped' },
    ]);
    tekton.end(
      {
        status: 'False',
        reason: 'Failed',
        message: 'Tasks Completed: 1 (Failed: 1, Cancelled 0), Skipped: 1',
      },
      { skippedTasks: [{ name: 'test', reason: 'Parent Tasks were skipped' }] },
    );
    const done = await finished(id);
    expect(done.status).toBe('failed');
    expect(done.reason).toBe('task "build" failed: Failed: "step-compile" exited with code 2');
    const rows = Object.fromEntries(done.taskRuns.map((r) => [r.name, r]));
    expect(rows.build!.status).toBe('failed');
    expect(rows.build!.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
      ['compile', 'failed', 2],
      ['package', 'skipped', 0],
    ]);
    expect(rows.test).toMatchObject({ status: 'skipped', reason: 'Parent Tasks were skipped' });
  });

  it('aborts by setting spec.status: Cancelled, and ends cancelled when Tekton says so', async () => {
    const id = await start();
    const tekton = await handedOff(id);
    const build = tekton.startTask('build', [{ name: 'compile' }]);
    const abort = await call('POST', `/api/pipelineruns/${id}/abort`);
    expect(abort.statusCode, abort.body).toBe(200);
    await expect.poll(() => tekton.object.spec.status, { timeout: 10_000 }).toBe('Cancelled');
    // Slipway still owns the rest of the spec it applied
    expect(tekton.object.spec.pipelineSpec).toBeTruthy();
    tekton.finishTask(build, [{ name: 'compile', exitCode: 1, terminationReason: 'TaskRunCancelled' }], {
      condition: { status: 'False', reason: 'TaskRunCancelled', message: 'TaskRun was cancelled' },
    });
    tekton.end({ status: 'False', reason: 'Cancelled', message: 'PipelineRun was cancelled' });
    const done = await finished(id);
    expect(done.status).toBe('cancelled');
    expect(done.taskRuns.find((r) => r.name === 'build')).toMatchObject({ status: 'cancelled' });
  });

  it("reads Tekton's timeout as the run's, in Slipway's words", async () => {
    const id = await start({ timeoutHours: 1 });
    const tekton = await handedOff(id);
    expect(tekton.object.spec.timeouts).toEqual({ pipeline: '1h0m0s' });
    tekton.end({
      status: 'False',
      reason: 'PipelineRunTimeout',
      message: 'PipelineRun timed out after 1h0m0s',
    });
    const done = await finished(id);
    expect(done).toMatchObject({ status: 'timed_out', reason: 'the run exceeded its timeout of 1h0m0s' });
  });

  it('keeps following when the agent drops mid-run: Tekton runs on, the watch resumes', async () => {
    const id = await start();
    const tekton = await handedOff(id);
    const build = tekton.startTask('build', [{ name: 'compile', log: 'before\n' }]);
    await expect
      .poll(async () => (await detail(id)).taskRuns.find((r) => r.name === 'build')?.status, {
        timeout: 10_000,
      })
      .toBe('running');
    await expect
      .poll(async () => (await call('GET', `/api/pipelineruns/${id}/logs?task=build`)).body, {
        timeout: 10_000,
      })
      .toContain('before');
    t.app.agentGateway.disconnect(cluster.clusterId, 'test: the agent drops');
    // while it is away Tekton goes on
    cluster.api.appendLog(NS, `${build}-pod`, 'step-compile', 'while the agent was away\n');
    tekton.finishTask(build, [{ name: 'compile' }]);
    tekton.end({ status: 'True', reason: 'Succeeded', message: 'Tasks Completed: 1' });
    const done = await finished(id);
    expect(done.status).toBe('succeeded');
    expect(done.taskRuns.find((r) => r.name === 'build')).toMatchObject({ status: 'succeeded' });
    // the log is followed again from where it was: nothing lost, nothing twice
    const logs = (await call('GET', `/api/pipelineruns/${id}/logs?task=build`)).body;
    expect(logs).toContain('while the agent was away');
    expect(logs.split('before').length - 1).toBe(1);
  });

  it("follows a retried TaskRun's new Pod (retries): both attempts' logs, and the end of the last", async () => {
    const id = await start();
    const tekton = await handedOff(id);
    const build = tekton.startTask('build', [{ name: 'compile', log: 'first attempt\n' }]);
    await expect
      .poll(async () => (await call('GET', `/api/pipelineruns/${id}/logs?task=build`)).body, {
        timeout: 10_000,
      })
      .toContain('first attempt');
    tekton.retryTask(build, [{ name: 'compile', log: 'second attempt\n' }]);
    tekton.finishTask(build, [{ name: 'compile' }]);
    tekton.end({ status: 'True', reason: 'Succeeded', message: 'Tasks Completed: 1' });
    const done = await finished(id);
    expect(done.taskRuns.find((r) => r.name === 'build')).toMatchObject({ status: 'succeeded' });
    const logs = (await call('GET', `/api/pipelineruns/${id}/logs?task=build`)).body;
    expect(logs).toContain('first attempt');
    expect(logs).toContain('second attempt');
  });

  it("records a matrix's TaskRuns (<run>-<task>-<i>, pipelineruns.md) as the task's instances", async () => {
    const id = await start();
    const tekton = await handedOff(id);
    const first = tekton.startTask(
      'build',
      [{ name: 'compile' }, { name: 'package' }],
      `${tekton.name}-build-0`,
    );
    const second = tekton.startTask(
      'build',
      [{ name: 'compile' }, { name: 'package' }],
      `${tekton.name}-build-1`,
    );
    tekton.finishTask(first, [{ name: 'compile' }, { name: 'package' }]);
    tekton.finishTask(second, [{ name: 'compile' }, { name: 'package' }]);
    tekton.end(
      {
        status: 'True',
        reason: 'Completed',
        message: 'Tasks Completed: 2 (Failed: 0, Cancelled 0), Skipped: 2',
      },
      {
        skippedTasks: [
          { name: 'test', reason: 'When Expressions evaluated to false' },
          { name: 'notify', reason: 'When Expressions evaluated to false' },
        ],
      },
    );
    const done = await finished(id);
    expect(done.status).toBe('succeeded');
    expect(done.taskRuns.map((r) => [r.name, r.pipelineTask, r.status]).sort()).toEqual([
      ['build-0', 'build', 'succeeded'],
      ['build-1', 'build', 'succeeded'],
      ['notify', 'notify', 'skipped'],
      ['test', 'test', 'skipped'],
    ]);
    expect(done.taskRuns.find((r) => r.name === 'notify')!.isFinally).toBe(true);
  });

  it("copies the workspace's secrets it reads into the namespace under per-run names, owned by the PipelineRun", async () => {
    const secret = await call('POST', '/api/secrets', {
      name: 'registry-token',
      type: 'generic',
      values: { token: 's3cr3t-value' },
    });
    expect(secret.statusCode, secret.body).toBe(201);
    const withSecret = await insertPipeline(
      t.db.database,
      owner.workspaceId,
      secretPipeline('registry-token'),
    );
    const id = await start({ pipelineId: withSecret });
    const tekton = await handedOff(id);
    const copy = `${tekton.name}-registry-token`;
    // started once the copy exists: applied pending first, then without spec.status
    await expect.poll(() => tekton.object.spec.status, { timeout: 10_000 }).toBeUndefined();
    const stored = cluster.api.get('v1', 'Secret', copy, NS)!;
    expect(stored.data).toEqual({ token: Buffer.from('s3cr3t-value').toString('base64') });
    expect(stored.metadata.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'PipelineRun', name: tekton.name, uid: tekton.object.metadata.uid }),
    ]);
    expect(JSON.stringify(tekton.object.spec.pipelineSpec)).toContain(`"name":"${copy}"`);
    const use = tekton.startTask('use', [{ name: 'login', log: 'token is s3cr3t-value\n' }]);
    tekton.finishTask(use, [{ name: 'login' }]);
    tekton.end({ status: 'True', reason: 'Succeeded', message: 'Tasks Completed: 1' });
    expect((await finished(id)).status).toBe('succeeded');
    const logs = await call('GET', `/api/pipelineruns/${id}/logs?task=use`);
    expect(logs.body).toContain('token is ');
    expect(logs.body).not.toContain('s3cr3t-value');
    // the copy goes with the run
    expect(cluster.api.get('v1', 'Secret', copy, NS)).toBeUndefined();
  });

  it("copies the workspace's config maps, for envFrom and a workspace bound to one, and renames both references", async () => {
    const created = await call('POST', '/api/config-maps', {
      name: 'app-settings',
      data: { LOG_LEVEL: 'debug' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const pipeline = await insertPipeline(
      t.db.database,
      owner.workspaceId,
      `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: with-config }
spec:
  workspaces:
    - name: config
  tasks:
    - name: show
      workspaces:
        - { name: config, workspace: config }
      taskSpec:
        workspaces:
          - name: config
        steps:
          - name: print
            image: alpine:3.20
            envFrom:
              - configMapRef: { name: app-settings }
            script: echo "$LOG_LEVEL"
`,
    );
    const id = await start({
      pipelineId: pipeline,
      workspaces: [{ name: 'config', configMap: { name: 'app-settings' } }],
    });
    const tekton = await handedOff(id);
    const copy = `${tekton.name}-app-settings`;
    await expect.poll(() => tekton.object.spec.status, { timeout: 10_000 }).toBeUndefined();
    expect(cluster.api.get('v1', 'ConfigMap', copy, NS)).toMatchObject({ data: { LOG_LEVEL: 'debug' } });
    expect(tekton.object.spec.workspaces).toEqual([{ name: 'config', configMap: { name: copy } }]);
    expect(JSON.stringify(tekton.object.spec.pipelineSpec)).toContain(`"configMapRef":{"name":"${copy}"}`);
    tekton.end({ status: 'False', reason: 'Failed', message: 'Tasks Completed: 0' });
    expect((await finished(id)).status).toBe('failed');
    expect(cluster.api.get('v1', 'ConfigMap', copy, NS)).toBeUndefined();
  });

  it("refuses, before sending anything, a secret that is neither the workspace's nor in the namespace", async () => {
    const missing = await insertPipeline(t.db.database, owner.workspaceId, secretPipeline('nowhere'));
    const id = await start({ pipelineId: missing });
    const done = await finished(id);
    expect(done).toMatchObject({
      status: 'failed',
      reason:
        'spec.pipelineSpec.tasks[0].taskSpec.steps[0].env[0].valueFrom.secretKeyRef.name: secret "nowhere" is neither one of the workspace\'s secrets nor in namespace ci',
    });
    expect(
      cluster.api.list('tekton.dev/v1', 'PipelineRun', NS).map((o) => o.metadata.labels),
    ).not.toContainEqual(expect.objectContaining({ [RUN_ID_LABEL]: id }));
  });

  it("is not handed off from an environment whose task runner is 'pods': Slipway's own pods run it", async () => {
    const opted = await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'pods' });
    expect(opted.statusCode, opted.body).toBe(200);
    try {
      const id = await start();
      // the Kubernetes executor's pod for the first task, and no PipelineRun
      await expect
        .poll(
          () =>
            cluster.api
              .list('v1', 'Pod', NS)
              .some(
                (p) => (p.metadata.labels as Record<string, string> | undefined)?.['slipway.dev/run'] === id,
              ),
          { timeout: 10_000 },
        )
        .toBe(true);
      expect(
        cluster.api
          .list('tekton.dev/v1', 'PipelineRun', NS)
          .some((o) => (o.metadata.labels as Record<string, string>)[RUN_ID_LABEL] === id),
      ).toBe(false);
      expect((await call('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(200);
      expect((await finished(id)).status).toBe('cancelled');
    } finally {
      await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'cluster' });
    }
  });
});
