import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINISHED_RUN_STATUSES, type EnvironmentDetail, type PipelineRunDetail } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import { attachCluster, type AttachedCluster } from '../../clusters/attached-agent.test-helper.js';
import { kubernetesSchemaProblem } from '../../clusters/kubernetes-schemas.js';
import { waitFor } from '../../pipeline-runs/pipeline-runs.test-helper.js';
import { RUN_ID_LABEL } from './pipeline-run-object.js';
import { TektonPlayer, tektonCrds } from './tekton-controller.test-helper.js';
import { pipelineRunIssues } from './tekton-schemas.js';

/*
 * A run document's pod templates where the environment's cluster runs the tasks: handed to Tekton
 * as spec.taskRunTemplate.podTemplate and spec.taskRunSpecs[].podTemplate (checked against the
 * PipelineRun CRD's schema); on Slipway's own pods, the task pod's fields (checked against the Pod
 * schema); refused where the tasks run on the server. The test Kubernetes API server serves
 * Tekton's CRDs; no controller runs: the test plays it (TektonPlayer).
 */

const NS = 'ci';

/** Tekton's own examples (pipeline-runs/tekton-examples/README.md says where each comes from). */
const example = (file: string) =>
  readFileSync(new URL(`../../pipeline-runs/tekton-examples/${file}`, import.meta.url), 'utf8');

/** docs/podtemplates.md's fields, a taskRunTemplate's and a taskRunSpec's (docs/pipelineruns.md). */
const DOCUMENT = (name: string) => `apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: ${name}, namespace: ${NS} }
spec:
  taskRunTemplate:
    podTemplate:
      securityContext:
        runAsNonRoot: true
        runAsUser: 1001
      nodeSelector:
        disktype: hdd
      tolerations:
        - key: "workload-type"
          operator: "Equal"
          value: "ci"
          effect: "NoSchedule"
      env:
        - name: STAGE
          value: template
      dnsPolicy: None
      dnsConfig:
        nameservers: ["1.1.1.1"]
      hostAliases:
        - ip: "127.0.0.1"
          hostnames: ["foo.local"]
  taskRunSpecs:
    - pipelineTaskName: build
      podTemplate:
        nodeSelector:
          disktype: ssd
        env:
          - name: STAGE
            value: build
  pipelineSpec:
    tasks:
      - name: build
        taskSpec: { steps: [{ name: compile, image: alpine:3.20, script: 'echo "$STAGE"' }] }
`;

describe('a run document handed to Tekton, or run as pods, with its pod templates', () => {
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

  const create = async (text: string) => {
    const res = await call('POST', `/api/pipelineruns?environmentId=${environmentId}`, text);
    expect(res.statusCode, res.body).toBe(201);
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
  const podOf = async (id: string) => {
    let pod: Record<string, unknown> & { spec: Record<string, unknown> } = { spec: {} };
    await expect
      .poll(
        () =>
          (pod = cluster.api
            .list('v1', 'Pod', NS)
            .find(
              (p) => (p.metadata.labels as Record<string, string> | undefined)?.['slipway.dev/run'] === id,
            ) as unknown as typeof pod),
        { timeout: 10_000 },
      )
      .toBeTruthy();
    return pod;
  };
  const withTaskRunner = async (taskRunner: string, body: () => Promise<void>) => {
    const opted = await call('PUT', `/api/environments/${environmentId}`, { taskRunner });
    expect(opted.statusCode, opted.body).toBe(200);
    try {
      await body();
    } finally {
      await call('PUT', `/api/environments/${environmentId}`, { taskRunner: 'cluster' });
    }
  };

  it("hands Tekton's taskRunSpecs example to Tekton with its podTemplate, and the export gives it back", async () => {
    const id = await create(example('pipelinerun-taskrunspecs.yaml'));
    const tekton = await handedOff(id);
    expect(pipelineRunIssues(tekton.object as never)).toEqual([]);
    expect(tekton.object.spec.taskRunSpecs).toEqual([
      { pipelineTaskName: 'first-add-taskspec', serviceAccountName: 'default' },
      { pipelineTaskName: 'second-add-taskspec', podTemplate: { nodeSelector: { disktype: 'ssd' } } },
    ]);
    expect(tekton.object.spec).not.toHaveProperty('taskRunTemplate');
    const exported = (await call('GET', `/api/pipelineruns/${id}/export`)).json();
    expect(exported.spec.taskRunSpecs[1]).toEqual({
      pipelineTaskName: 'second-add-taskspec',
      podTemplate: { nodeSelector: { disktype: 'ssd' } },
    });
    tekton.end({
      status: 'False',
      reason: 'Cancelled',
      message: `PipelineRun "${tekton.name}" was cancelled`,
    });
    expect((await finished(id)).status).toBe('cancelled');
  });

  it("sends the taskRunTemplate's pod template as written, every field within the CRD's schema", async () => {
    const id = await create(DOCUMENT('handed-off'));
    const tekton = await handedOff(id);
    expect(pipelineRunIssues(tekton.object as never)).toEqual([]);
    const template = (tekton.object.spec.taskRunTemplate as { podTemplate: Record<string, unknown> })
      .podTemplate;
    expect(template).toMatchObject({
      securityContext: { runAsNonRoot: true, runAsUser: 1001 },
      nodeSelector: { disktype: 'hdd' },
      dnsPolicy: 'None',
    });
    // Tekton merges the taskRunSpec's over it itself
    expect(tekton.object.spec.taskRunSpecs).toEqual([
      {
        pipelineTaskName: 'build',
        podTemplate: { nodeSelector: { disktype: 'ssd' }, env: [{ name: 'STAGE', value: 'build' }] },
      },
    ]);
    const exported = (await call('GET', `/api/pipelineruns/${id}/export`)).json();
    expect(exported.spec.taskRunTemplate.podTemplate).toEqual(template);
    tekton.end({
      status: 'False',
      reason: 'Cancelled',
      message: `PipelineRun "${tekton.name}" was cancelled`,
    });
    await finished(id);
  });

  it("puts the merged pod template on Slipway's task pod (task runner 'pods'): a valid Pod", async () => {
    await withTaskRunner('pods', async () => {
      const id = await create(DOCUMENT('on-pods'));
      const pod = await podOf(id);
      expect(kubernetesSchemaProblem(pod)).toBeNull();
      // "build"'s taskRunSpec over the taskRunTemplate (MergePodTemplateWithDefault)
      expect(pod.spec).toMatchObject({
        nodeSelector: { disktype: 'ssd' },
        securityContext: { runAsNonRoot: true, runAsUser: 1001 },
        tolerations: [{ key: 'workload-type', operator: 'Equal', value: 'ci', effect: 'NoSchedule' }],
        dnsPolicy: 'None',
        dnsConfig: { nameservers: ['1.1.1.1'] },
        hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local'] }],
      });
      const env = (pod.spec.containers as { env: { name: string; value?: string }[] }[])[0]!.env;
      expect(env.filter((e) => e.name === 'STAGE')).toEqual([{ name: 'STAGE', value: 'build' }]);
      expect((await call('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(200);
      expect((await finished(id)).status).toBe('cancelled');
    });
  });

  it("substitutes each matrix run's params in its taskRunSpec's pod template (Tekton's matrix example), on pods and not before handing off", async () => {
    const text = example('pipelinerun-with-matrix-and-taskrunspecs-param-substitution.yaml');
    const handed = await create(text);
    const tekton = await handedOff(handed);
    expect(pipelineRunIssues(tekton.object as never)).toEqual([]);
    // Tekton substitutes it per matrix TaskRun itself
    expect(tekton.object.spec.taskRunSpecs).toEqual([
      {
        pipelineTaskName: 'build-and-push-manifest',
        podTemplate: { nodeSelector: { 'node-type': '$(params.node-type)' } },
      },
    ]);
    tekton.end({
      status: 'False',
      reason: 'Cancelled',
      message: `PipelineRun "${tekton.name}" was cancelled`,
    });
    await finished(handed);
    await withTaskRunner('pods', async () => {
      const id = await create(text);
      let pods: { spec: { nodeSelector?: Record<string, string> } }[] = [];
      await expect
        .poll(
          () =>
            (pods = cluster.api
              .list('v1', 'Pod', NS)
              .filter(
                (p) => (p.metadata.labels as Record<string, string> | undefined)?.['slipway.dev/run'] === id,
              ) as unknown as typeof pods).length,
          { timeout: 10_000 },
        )
        .toBe(2);
      expect(pods.map((p) => p.spec.nodeSelector?.['node-type']).sort()).toEqual(['worker-1', 'worker-2']);
      expect((await call('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(200);
      await finished(id);
    });
  });

  it("hands Tekton's windows-node-selectors TaskRun to Tekton with its pod template, and runs it on a pod with its nodeSelector", async () => {
    const handed = await create(example('taskrun-windows-node-selectors.yaml'));
    const tekton = await handedOff(handed);
    expect(pipelineRunIssues(tekton.object as never)).toEqual([]);
    // a TaskRun's spec.podTemplate is its one task's: the PipelineRun's taskRunTemplate
    expect(tekton.object.spec.taskRunTemplate).toEqual({
      podTemplate: { nodeSelector: { 'kubernetes.io/os': 'windows' } },
    });
    tekton.end({
      status: 'False',
      reason: 'Cancelled',
      message: `PipelineRun "${tekton.name}" was cancelled`,
    });
    await finished(handed);
    // run names are unique in the workspace (409 for the same name): the pods run is renamed
    const renamed = example('taskrun-windows-node-selectors.yaml').replace(
      'name: windows-task-ns-run',
      'name: windows-task-ns-run-pods',
    );
    await withTaskRunner('pods', async () => {
      const id = await create(renamed);
      const pod = await podOf(id);
      expect(kubernetesSchemaProblem(pod)).toBeNull();
      expect(pod.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'windows' });
      expect((await call('POST', `/api/pipelineruns/${id}/abort`)).statusCode).toBe(200);
      await finished(id);
    });
  });

  it("refuses pod templates where the environment's tasks run on the server (task runner 'server'), naming each", async () => {
    await withTaskRunner('server', async () => {
      const res = await call('POST', '/api/pipelineruns', DOCUMENT('on-server'));
      expect(res.statusCode).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
        'spec.taskRunTemplate.podTemplate (line 7, column 7)',
        'spec.taskRunSpecs[0].podTemplate (line 29, column 9)',
      ]);
      expect(res.json().message).toContain(
        "the task runs in Slipway's own sandbox on the server, not in a Kubernetes pod",
      );
    });
    // and without an environment at all
    const none = await call('POST', '/api/pipelineruns', example('run-steps-as-non-root.yaml'));
    expect(none.statusCode).toBe(400);
    expect(none.json().details[0].path).toBe('document 2: spec.podTemplate (line 34, column 5)');
  });
});
