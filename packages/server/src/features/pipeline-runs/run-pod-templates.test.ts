import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { podPlan } from '../pipelines/executor/kubernetes-executor-pod.js';
import { kubernetesRefusal } from '../pipelines/executor/kubernetes-executor-refusals.js';
import type { ResolvedTaskRun } from '../pipelines/executor/types.js';
import { kubernetesSchemaProblem } from '../clusters/kubernetes-schemas.js';
import type { Task } from '../pipelines/definition/index.js';
import { readRunDocument, type RunDocumentRecord } from './run-document.js';
import { exportPipelineRun } from './run-export.js';
import {
  mergePodTemplates,
  namedPodTemplates,
  podTemplateFor,
  podTemplateIssues,
  serverPodTemplateIssues,
  substitutePodTemplate,
} from './run-pod-templates.js';

/* tektoncd/pipeline docs/podtemplates.md, docs/pipelineruns.md and examples/v1 (tekton-examples/). */

const example = (file: string) => readFileSync(new URL(`./tekton-examples/${file}`, import.meta.url), 'utf8');

const read = (text: string, catalogue = new Map<string, Task>()) => {
  const result = readRunDocument(text, catalogue);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
};

describe('a run document’s pod template', () => {
  it("takes Tekton's examples: a TaskRun's nodeSelector and securityContext, a taskRunSpec's nodeSelector", () => {
    const windows = read(example('taskrun-windows-node-selectors.yaml')).record;
    expect(windows.podTemplate).toEqual({ nodeSelector: { 'kubernetes.io/os': 'windows' } });
    expect(podTemplateFor(windows, 'windows-task-ns')).toEqual({
      nodeSelector: { 'kubernetes.io/os': 'windows' },
    });
    expect(namedPodTemplates(windows)).toEqual(['spec.podTemplate']);

    const nonRoot = read(example('run-steps-as-non-root.yaml')).record;
    expect(podTemplateFor(nonRoot, 'show-non-root-steps')).toEqual({
      securityContext: { runAsNonRoot: true, runAsUser: 1001 },
    });

    const specs = read(example('pipelinerun-taskrunspecs.yaml')).record;
    expect(podTemplateFor(specs, 'second-add-taskspec')).toEqual({ nodeSelector: { disktype: 'ssd' } });
    expect(podTemplateFor(specs, 'first-add-taskspec')).toBeUndefined();
    expect(namedPodTemplates(specs)).toEqual(['spec.taskRunSpecs[1].podTemplate']);
  });

  it("merges a taskRunSpec's template over the taskRunTemplate's as MergePodTemplateWithDefault does", () => {
    const record: Partial<RunDocumentRecord> = {
      kind: 'PipelineRun',
      podTemplate: {
        nodeSelector: { disktype: 'hdd' },
        tolerations: [{ key: 'ci', operator: 'Exists', effect: 'NoSchedule' }],
        env: [
          { name: 'A', value: 'run' },
          { name: 'B', value: 'run' },
        ],
        schedulerName: 'default-scheduler',
        hostNetwork: true,
      },
      taskRunSpecs: [
        {
          pipelineTaskName: 'build',
          podTemplate: {
            nodeSelector: { disktype: 'ssd' },
            env: [{ name: 'B', value: 'build' }],
            schedulerName: '',
            hostNetwork: false,
          },
        },
      ],
    };
    expect(podTemplateFor(record, 'build')).toEqual({
      nodeSelector: { disktype: 'ssd' },
      tolerations: [{ key: 'ci', operator: 'Exists', effect: 'NoSchedule' }],
      // by name, the taskRunSpec's entry first and winning
      env: [
        { name: 'B', value: 'build' },
        { name: 'A', value: 'run' },
      ],
      // an empty schedulerName is unset; hostNetwork is true if either says so
      schedulerName: 'default-scheduler',
      hostNetwork: true,
    });
    expect(podTemplateFor(record, 'test')).toEqual(record.podTemplate);
    expect(mergePodTemplates({}, undefined)).toBeUndefined();
    expect(mergePodTemplates(undefined, { dnsPolicy: 'None' })).toEqual({ dnsPolicy: 'None' });
  });

  it('names what is not a pod template: unknown fields, wrong types, a DNS policy Tekton refuses, env valueFrom', () => {
    const at = 'spec.podTemplate';
    const rules = (value: unknown) => podTemplateIssues(value, at).map((i) => `${i.path} [${i.rule}]`);
    expect(rules({ nodeName: 'n1' })).toEqual(['spec.podTemplate.nodeName [unknown-field]']);
    expect(rules({ nodeSelector: { disktype: 1 }, hostNetwork: 'yes', tolerations: {} })).toEqual([
      'spec.podTemplate.nodeSelector [schema]',
      'spec.podTemplate.hostNetwork [schema]',
      'spec.podTemplate.tolerations [schema]',
    ]);
    expect(rules({ dnsPolicy: 'ClusterFirstWithHostNet' })).toEqual([
      'spec.podTemplate.dnsPolicy [dns-policy]',
    ]);
    expect(
      rules({ env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }, { value: 'x' }] }),
    ).toEqual(['spec.podTemplate.env[1].name [schema]', 'spec.podTemplate.env[0].valueFrom [unsupported]']);
    expect(rules('x')).toEqual(['spec.podTemplate [schema]']);
    // every field of docs/podtemplates.md's table
    expect(
      rules({
        env: [{ name: 'A', value: 'b' }],
        nodeSelector: { a: 'b' },
        tolerations: [{ key: 'k', operator: 'Exists' }],
        affinity: { nodeAffinity: {} },
        securityContext: { runAsUser: 1001 },
        runtimeClassName: 'gvisor',
        automountServiceAccountToken: false,
        dnsPolicy: 'None',
        dnsConfig: { nameservers: ['1.1.1.1'] },
        enableServiceLinks: false,
        priorityClassName: 'high',
        schedulerName: 'volcano',
        imagePullSecrets: [{ name: 'creds' }],
        hostNetwork: false,
        hostUsers: false,
        hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local'] }],
        topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' }],
      }),
    ).toEqual([]);
  });

  it("refuses a pod template's volumes, saying where the volume belongs (Tekton's template-volume example, docs/pipelineruns.md's)", () => {
    const volume = readRunDocument(example('template-volume.yaml'), new Map());
    expect(volume.ok).toBe(false);
    const errors = volume.ok ? [] : volume.errors;
    expect(errors.find((e) => e.path === 'spec.podTemplate.volumes')).toMatchObject({
      rule: 'unsupported',
      line: 26,
      message: expect.stringContaining('declare the volume there (emptyDir, configMap'),
    });
    const docs = readRunDocument(
      `apiVersion: tekton.dev/v1
kind: PipelineRun
metadata:
  name: mypipelinerun
spec:
  pipelineRef:
    name: mypipeline
  taskRunTemplate:
    podTemplate:
      securityContext:
        runAsNonRoot: true
        runAsUser: 1001
      volumes:
        - name: my-cache
          persistentVolumeClaim:
            claimName: my-volume-claim
`,
      new Map(),
    );
    expect(docs.ok ? [] : docs.errors.map((e) => `${e.path} [${e.rule}]`)).toEqual([
      'spec.taskRunTemplate.podTemplate.volumes [unsupported]',
    ]);
  });

  it("is refused on Slipway's own executor, naming each template's path and why", () => {
    const record = read(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineRef: { name: p }
  taskRunTemplate:
    podTemplate: { nodeSelector: { disktype: ssd } }
  taskRunSpecs:
    - pipelineTaskName: build
      podTemplate: { tolerations: [{ key: ci, operator: Exists }] }
    - pipelineTaskName: test
      podTemplate: {}
`).record;
    const issues = serverPodTemplateIssues(record);
    expect(issues.map((i) => i.path)).toEqual([
      'spec.taskRunTemplate.podTemplate',
      'spec.taskRunSpecs[0].podTemplate',
    ]);
    expect(issues[0]!.message).toContain(
      "the task runs in Slipway's own sandbox on the server, not in a Kubernetes pod",
    );
  });

  it("reads v1beta1's taskPodTemplate and podTemplate as v1's (Tekton's conversion)", () => {
    const record = read(`apiVersion: tekton.dev/v1beta1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineRef: { name: p }
  podTemplate: { securityContext: { runAsUser: 1001 } }
  taskRunSpecs:
    - pipelineTaskName: build
      taskPodTemplate: { nodeSelector: { disktype: ssd } }
`).record;
    expect(podTemplateFor(record, 'build')).toEqual({
      securityContext: { runAsUser: 1001 },
      nodeSelector: { disktype: 'ssd' },
    });
  });

  it('is given back by the export (taskRunTemplate.podTemplate, taskRunSpecs as written)', () => {
    const record = read(example('run-steps-as-non-root.yaml')).record;
    const at = new Date('2026-01-01T00:00:00Z');
    const exported = exportPipelineRun({
      run: {
        id: 'r1',
        name: 'show-non-root-steps-run-abcde',
        status: 'succeeded',
        reason: null,
        params: {},
        workspaceBindings: [],
        timeoutMs: 3_600_000,
        trigger: { kind: 'user', document: record },
        createdAt: at,
        startedAt: at,
        finishedAt: at,
        cancelRequestedAt: null,
      },
      pipeline: { name: 'show-non-root-steps', adhoc: true },
      taskRuns: [],
    } as never) as { spec: { taskRunTemplate: unknown } };
    expect(exported.spec.taskRunTemplate).toEqual({
      serviceAccountName: 'default',
      podTemplate: { securityContext: { runAsNonRoot: true, runAsUser: 1001 } },
    });
  });
});

function taskRun(patch: Partial<ResolvedTaskRun> = {}): ResolvedTaskRun {
  return {
    name: 'build',
    steps: [
      {
        name: 'compile',
        image: 'alpine:3.20',
        script: 'echo $GREETING',
        env: { GREETING: 'hi', KEEP: 'step' },
        secretEnv: [],
        onError: 'stopAndFail',
      },
    ],
    resultsDir: '/results',
    results: [],
    workspaces: {},
    retries: 0,
    ...patch,
  };
}

describe("a pod template on Slipway's pods (the Kubernetes executor)", () => {
  const plan = (podTemplate: Record<string, unknown>) =>
    podPlan(taskRun({ podTemplate }), { namespace: 'ci', runKey: 'k', secretValues: new Map() })
      .pod as unknown as {
      spec: Record<string, unknown> & { containers: { env: { name: string; value?: string }[] }[] };
    };

  it("puts docs/podtemplates.md's fields on the pod, which is a valid Pod", () => {
    const template = {
      nodeSelector: { 'kubernetes.io/os': 'linux', disktype: 'ssd' },
      tolerations: [{ key: 'workload-type', operator: 'Equal', value: 'ci', effect: 'NoSchedule' }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] },
            ],
          },
        },
      },
      securityContext: { runAsNonRoot: true, runAsUser: 1001, fsGroup: 1001 },
      runtimeClassName: 'gvisor',
      automountServiceAccountToken: false,
      dnsPolicy: 'None',
      dnsConfig: { nameservers: ['1.1.1.1'], searches: ['ci.svc.cluster.local'] },
      enableServiceLinks: false,
      priorityClassName: 'high-priority',
      schedulerName: 'volcano',
      imagePullSecrets: [{ name: 'registry-creds' }],
      hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local'] }],
      hostNetwork: false,
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' },
      ],
    };
    const pod = plan(template);
    expect(kubernetesSchemaProblem(pod as never)).toBeNull();
    expect(pod.spec).toMatchObject(template);
    // the executor's own fields stay its own
    expect(pod.spec.restartPolicy).toBe('Never');
  });

  it("gives every step the template's env, over the step's own of the same name", () => {
    const pod = plan({
      env: [
        { name: 'GREETING', value: 'from the template' },
        { name: 'EXTRA', value: 'x' },
      ],
    });
    expect(kubernetesSchemaProblem(pod as never)).toBeNull();
    const env = pod.spec.containers[0]!.env;
    expect(env.filter((e) => e.name === 'GREETING')).toEqual([
      { name: 'GREETING', value: 'from the template' },
    ]);
    expect(env).toContainEqual({ name: 'KEEP', value: 'step' });
    expect(env).toContainEqual({ name: 'EXTRA', value: 'x' });
  });

  it("takes the task run's params in its strings, as Tekton's ApplyPodTemplateReplacements (docs/podtemplates.md's example)", () => {
    const template = {
      nodeSelector: { 'kubernetes.io/arch': '$(params.arch)', environment: '$(params.env)' },
      tolerations: [
        { key: 'workload-type', operator: 'Equal', value: '$(params.workload)', effect: 'NoSchedule' },
      ],
      hostAliases: [{ ip: '127.0.0.1', hostnames: ["$(params['host'])", '$(params.config.domain)'] }],
      runtimeClassName: '$(params.missing)',
      schedulerName: '$(context.pipelineRun.name)',
    };
    const params = {
      arch: 'arm64',
      env: 'staging',
      workload: 'ci',
      host: 'foo.local',
      config: { domain: 'bar.local' },
    };
    const substituted = substitutePodTemplate(template, params);
    expect(substituted).toEqual({
      nodeSelector: { 'kubernetes.io/arch': 'arm64', environment: 'staging' },
      tolerations: [{ key: 'workload-type', operator: 'Equal', value: 'ci', effect: 'NoSchedule' }],
      hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local', 'bar.local'] }],
      // what is not a param of the task run stays as written, and the executor refuses it
      runtimeClassName: '$(params.missing)',
      schedulerName: '$(context.pipelineRun.name)',
    });
    expect(kubernetesRefusal(taskRun({ podTemplate: substituted }))).toMatch(
      /^podTemplate\.runtimeClassName uses/,
    );
    expect(template.nodeSelector['kubernetes.io/arch']).toBe('$(params.arch)');
  });

  it('refuses what it cannot apply, naming the field: volumes, and $(...) Tekton would substitute', () => {
    expect(
      kubernetesRefusal(taskRun({ podTemplate: { volumes: [{ name: 'custom', emptyDir: {} }] } })),
    ).toMatch(/^podTemplate\.volumes: the Kubernetes executor mounts only workspaces/);
    expect(
      kubernetesRefusal(
        taskRun({ podTemplate: { nodeSelector: { 'kubernetes.io/arch': '$(params.arch)' } } }),
      ),
    ).toMatch(/^podTemplate\.nodeSelector uses a \$\(\.\.\.\) that is not one of the task's string params/);
    expect(
      kubernetesRefusal(taskRun({ podTemplate: { nodeSelector: { disktype: 'ssd' } } })),
    ).toBeUndefined();
  });
});
