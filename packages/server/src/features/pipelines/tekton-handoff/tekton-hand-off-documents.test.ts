import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINISHED_RUN_STATUSES, type EnvironmentDetail, type PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { attachCluster, type AttachedCluster } from '../../clusters/attached-agent.test-helper.js';
import { waitFor } from '../../pipeline-runs/pipeline-runs.test-helper.js';
import { RUN_ID_LABEL } from './pipeline-run-object.js';
import { TektonPlayer, tektonCrds } from './tekton-controller.test-helper.js';
import { pipelineRunIssues } from './tekton-schemas.js';

/*
 * A run document's timeouts.tasks / timeouts.finally and service accounts where the environment's
 * cluster runs the tasks: handed to Tekton in spec.timeouts, spec.taskRunTemplate and
 * spec.taskRunSpecs; on Slipway's own pods, the pod's serviceAccountName. The test Kubernetes API
 * server serves Tekton's CRDs; no controller runs: the test plays it (TektonPlayer).
 */

const NS = 'ci';

/** tektoncd/pipeline docs/pipelineruns.md, "Configuring a failure timeout" and "Specifying taskRunSpecs". */
const DOCUMENT = (name: string) => `apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: ${name}, namespace: ${NS} }
spec:
  timeouts:
    pipeline: "0h0m60s"
    tasks: "0h0m40s"
    finally: "0h0m20s"
  taskRunTemplate:
    serviceAccountName: build-bot
  taskRunSpecs:
    - pipelineTaskName: build
      serviceAccountName: builder
  pipelineSpec:
    tasks:
      - name: build
        taskSpec: { steps: [{ name: compile, image: alpine:3.20, script: echo compiling }] }
      - name: test
        runAfter: [build]
        taskSpec: { steps: [{ name: unit, image: alpine:3.20, script: echo testing }] }
    finally:
      - name: notify
        taskSpec: { steps: [{ name: send, image: alpine:3.20, script: echo done }] }
`;

describe('a run document handed to Tekton, or run as pods, with its timeouts and service accounts', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;
  let environmentId: string;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object | string) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...owner.headers,
        ...(typeof payload === 'string' ? { 'content-type': 'application/yaml' } : {}),
      },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner, { name: 'tekton' }, { customResourceDefinitions: tektonCrds() });
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    const envs = (await call('GET', '/api/environments?name=staging')).json() as EnvironmentDetail[];
    environmentId = envs[0]!.id;
    const bound = await call('PUT', `/api/environments/${environmentId}`, {
      clusterId: cluster.clusterId,
      namespace: NS,
    });
    expect(bound.statusCode, bound.body).toBe(200);
  });
  afterAll(async () => {
    await cluster.close();
    await t.close();
  });

  const create = async (name: string) => {
    const res = await call('POST', '/api/pipelineruns', DOCUMENT(name));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().environmentId).toBe(environmentId);
    return (res.json() as { id: string }).id;
  };
  const finished = (id: string) =>
    waitFor(async () => {
      const r = (await call('GET', `/api/pipelineruns/${id}`)).json() as PipelineRunDetail;
      return (FINISHED_RUN_STATUSES as readonly string[]).includes(r.status) && r;
    }, 20_000);
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

  it('sends timeouts.tasks and finally, taskRunTemplate and taskRunSpecs service accounts to Tekton, and reads its tasks timeout back', async () => {
    const id = await create('handed-off');
    const tekton = await handedOff(id);
    expect(pipelineRunIssues(tekton.object as never)).toEqual([]);
    expect(tekton.object.spec.timeouts).toEqual({ pipeline: '1m0s', tasks: '40s', finally: '20s' });
    expect(tekton.object.spec.taskRunTemplate).toEqual({ serviceAccountName: 'build-bot' });
    expect(tekton.object.spec.taskRunSpecs).toEqual([
      { pipelineTaskName: 'build', serviceAccountName: 'builder' },
    ]);
    // Tekton's reconciler, when timeouts.tasks passed and finally ran (pipelinerunstate.go)
    tekton.end({
      status: 'False',
      reason: 'PipelineRunTimeout',
      message: `PipelineRun "${tekton.name}" failed due to tasks failed to finish within "40s"`,
    });
    const done = await finished(id);
    expect(done).toMatchObject({
      status: 'timed_out',
      reason: "the run's tasks exceeded timeouts.tasks of 40s",
    });
    const exported = (await call('GET', `/api/pipelineruns/${id}/export`)).json();
    expect(exported.spec.timeouts).toEqual({ pipeline: '1m0s', tasks: '0h0m40s', finally: '0h0m20s' });
    expect(exported.status.conditions[0]).toMatchObject({
      reason: 'PipelineRunTimeout',
      message: 'PipelineRun "handed-off" failed due to tasks failed to finish within "40s"',
    });
  });

  it("runs each task's pod as its service account on Slipway's pods (task runner 'pods')", async () => {
    const opted = await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'pods' });
    expect(opted.statusCode, opted.body).toBe(200);
    try {
      const id = await create('on-pods');
      let pod: { spec: { serviceAccountName?: string } } | undefined;
      await expect
        .poll(
          () =>
            (pod = cluster.api
              .list('v1', 'Pod', NS)
              .find(
                (p) => (p.metadata.labels as Record<string, string> | undefined)?.['slipway.dev/run'] === id,
              ) as typeof pod),
          { timeout: 10_000 },
        )
        .toBeTruthy();
      // the first task is "build": its taskRunSpec's account, over the template's
      expect(pod!.spec.serviceAccountName).toBe('builder');
      expect((await call('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(200);
      expect((await finished(id)).status).toBe('cancelled');
    } finally {
      await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'cluster' });
    }
  });

  it("refuses a service account when the environment's tasks run on the server (task runner 'server'), naming the path", async () => {
    const opted = await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'server' });
    expect(opted.statusCode, opted.body).toBe(200);
    try {
      const res = await call('POST', '/api/pipelineruns', DOCUMENT('on-server'));
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
        'spec.taskRunTemplate.serviceAccountName (line 10, column 25)',
        'spec.taskRunSpecs[0].serviceAccountName (line 13, column 27)',
      ]);
      expect(res.json().message).toContain(
        'service account "build-bot" cannot be honoured here: the task runs on Slipway\'s own executor',
      );
    } finally {
      await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'cluster' });
    }
  });
});
