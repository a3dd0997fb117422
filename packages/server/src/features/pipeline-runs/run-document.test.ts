import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDefinition, type Task } from '../pipelines/definition/index.js';
import { adhocDefinition, readRunDocument, type RunDocument } from './run-document.js';
import { MAX_RUN_MS, runNameOf } from './run-document-rules.js';
import { childName } from './run-export.js';

/** Tekton's own examples (tekton-examples/README.md says where each comes from). */
const example = (file: string) => readFileSync(new URL(`./tekton-examples/${file}`, import.meta.url), 'utf8');

const ECHO = parseDefinition(`apiVersion: tekton.dev/v1
kind: Task
metadata: { name: echo }
spec:
  params: [{ name: text }]
  workspaces: [{ name: scratch, optional: true }]
  steps: [{ name: say, image: alpine, script: 'echo $(params.text)' }]
`);
const catalogue = new Map<string, Task>(ECHO.ok ? [['echo', ECHO.tasks[0]!]] : []);

function read(text: string | object): RunDocument {
  const result = readRunDocument(text, catalogue);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
}

function errors(text: string | object) {
  const result = readRunDocument(text, catalogue);
  if (result.ok) throw new Error('expected the document to be refused');
  return result.errors;
}

describe('readRunDocument: PipelineRun', () => {
  it('reads a PipelineRun whose pipelineSpec uses a Task of the same stream (Tekton example)', () => {
    const doc = read(example('pipelinerun-with-pipelinespec.yaml'));
    expect(doc.kind).toBe('PipelineRun');
    expect(doc.metadata.name).toBe('pipelinerun-echo-greetings');
    expect(doc.params).toEqual({
      MORNING_GREETINGS: 'Good Morning, Bob!',
      NIGHT_GREETINGS: 'Good Night, Bob!',
    });
    expect(doc.pipelineRef).toBeUndefined();
    expect(doc.adhoc!.documents.map((t) => (t.metadata as { name: string }).name)).toEqual([
      'task-echo-message',
    ]);
    // the text recorded for the run reads back as the PipelineRun's embedded spec, with its params
    // (which the spec's inline taskSpecs see) and the stream's Task
    const stored = parseDefinition(adhocDefinition(doc.adhoc!, 'pipelinerun-echo-greetings'));
    expect(stored.ok && stored.pipelineRun?.spec.params?.map((p) => p.name)).toEqual([
      'MORNING_GREETINGS',
      'NIGHT_GREETINGS',
    ]);
    expect(stored.ok && stored.pipelineRun?.spec.pipelineSpec?.tasks.map((t) => t.name)).toEqual([
      'echo-good-morning',
      'echo-good-night',
    ]);
    expect(stored.ok && stored.tasks.map((t) => t.metadata.name)).toEqual(['task-echo-message']);
  });

  it("reads a pipelineRef to the stream's Pipeline, with a taskRunSpecs timeout applied to its task (Tekton example)", () => {
    const doc = read(example('pipelinerun-with-task-timeout-override.yaml'));
    expect(doc.adhoc!.name).toBe('taskrun-timeout-override');
    const tasks = doc.adhoc!.spec.tasks as { name: string; timeout?: string }[];
    expect(tasks.find((t) => t.name === 'long-running-task')!.timeout).toBe('40000ms');
    expect(doc.record.taskRunSpecs).toEqual([{ pipelineTaskName: 'long-running-task', timeout: '40s' }]);
  });

  it('reads a pipelineRef to a stored pipeline with params, workspaces, timeouts and the default service account', () => {
    const doc = read({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { generateName: 'build-', labels: { team: 'a' } },
      spec: {
        pipelineRef: { name: 'build' },
        params: [{ name: 'tags', value: ['a', 'b'] }],
        workspaces: [
          { name: 'src', emptyDir: {} },
          { name: 'cfg', configMap: { name: 'settings' } },
        ],
        timeouts: { pipeline: '1h30m' },
        taskRunTemplate: { serviceAccountName: 'default' },
        taskRunSpecs: [{ pipelineTaskName: 'compile', serviceAccountName: 'default' }],
      },
    });
    expect(doc.pipelineRef).toBe('build');
    expect(doc.params).toEqual({ tags: ['a', 'b'] });
    expect(doc.workspaces).toEqual([
      { name: 'src', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'settings' } },
    ]);
    expect(doc.timeoutMs).toBe(5_400_000);
    expect(doc.taskRunSpecs).toEqual([
      { pipelineTaskName: 'compile', path: 'spec.taskRunSpecs[0].pipelineTaskName' },
    ]);
    expect(doc.record).toMatchObject({
      kind: 'PipelineRun',
      labels: { team: 'a' },
      serviceAccountName: 'default',
    });
    expect(runNameOf(doc.metadata, () => 0)).toBe('build-bbbbb');
  });

  it('takes timeouts.pipeline "0" (no timeout) as the longest run allowed', () => {
    const doc = read({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { name: 'r' },
      spec: { pipelineRef: { name: 'p' }, timeouts: { pipeline: '0' } },
    });
    expect(doc.timeoutMs).toBe(MAX_RUN_MS);
  });

  it('reads a tekton.dev/v1beta1 PipelineRun as v1 (timeout and serviceAccountName moved)', () => {
    const doc = read(`apiVersion: tekton.dev/v1beta1
kind: PipelineRun
metadata: { name: old }
spec:
  pipelineRef: { name: p }
  timeout: 10m
  serviceAccountName: default
`);
    expect(doc.timeoutMs).toBe(600_000);
    expect(doc.record.serviceAccountName).toBe('default');
  });

  it.each([
    [
      'timeouts.tasks over timeouts.pipeline',
      { timeouts: { pipeline: '1m', tasks: '2m' } },
      'spec.timeouts.tasks',
      'timeouts',
    ],
    [
      'timeouts.finally over the default timeout (1h)',
      { timeouts: { finally: '2h' } },
      'spec.timeouts.finally',
      'timeouts',
    ],
    [
      'a service account that is not a name',
      { taskRunTemplate: { serviceAccountName: 'Builder_1' } },
      'spec.taskRunTemplate.serviceAccountName',
      'service-account',
    ],
    [
      'a field that is not a pod template field',
      { taskRunTemplate: { podTemplate: { nodeName: 'node-1' } } },
      'spec.taskRunTemplate.podTemplate.nodeName',
      'unknown-field',
    ],
    [
      'compute resources',
      { taskRunSpecs: [{ pipelineTaskName: 'a', computeResources: { limits: { cpu: '1' } } }] },
      'spec.taskRunSpecs[0].computeResources',
      'unsupported',
    ],
    [
      'remote resolution',
      { pipelineRef: { resolver: 'git', params: [] } },
      'spec.pipelineRef.resolver',
      'unsupported',
    ],
    ['a pending status', { status: 'PipelineRunPending' }, 'spec.status', 'unsupported'],
    ['an unknown field', { serviceAccount: 'x' }, 'spec.serviceAccount', 'unknown-field'],
    ['a timeout over 168h', { timeouts: { pipeline: '200h' } }, 'spec.timeouts.pipeline', 'timeout'],
    [
      'a PVC on an unknown workspace shape',
      { workspaces: [{ name: 'w', emptyDir: {}, secret: { secretName: 's' } }] },
      'spec.workspaces[0]',
      'workspace-binding',
    ],
    [
      'a taskRunSpec timeout on a stored pipeline',
      { taskRunSpecs: [{ pipelineTaskName: 'a', timeout: '1m' }] },
      'spec.taskRunSpecs[0].timeout',
      'unsupported',
    ],
  ])('refuses %s, naming the path and the rule', (_what, spec, path, rule) => {
    const found = errors({
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      metadata: { name: 'r' },
      spec: { pipelineRef: { name: 'p' }, ...spec },
    });
    expect(found).toContainEqual(expect.objectContaining({ path, rule }));
  });

  it("refuses a stream with two runs (Tekton example), naming the second one's line", () => {
    const found = errors(example('ignore-step-error.yaml'));
    expect(found).toEqual([expect.objectContaining({ path: 'kind', rule: 'one-run', line: 73 })]);
  });

  it('refuses a document without a name, a Pipeline alone and bad YAML, with lines', () => {
    expect(
      errors('apiVersion: tekton.dev/v1\nkind: PipelineRun\nspec:\n  pipelineRef: { name: p }\n'),
    ).toEqual([expect.objectContaining({ path: 'metadata', rule: 'name-required' })]);
    expect(
      errors('apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: { name: p }\nspec: { tasks: [] }\n'),
    ).toEqual([expect.objectContaining({ rule: 'no-run' })]);
    expect(errors('kind: PipelineRun\nspec: [\n')[0]).toMatchObject({ rule: 'yaml-syntax', line: 3 });
  });

  it("refuses a ConfigMap in the stream (as Tekton's workspace examples carry), saying where config maps belong", () => {
    const found = errors(`apiVersion: v1
kind: ConfigMap
metadata: { name: settings }
data: { a: b }
---
apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineRef: { name: p }
`);
    expect(found).toEqual([expect.objectContaining({ path: 'kind', rule: 'kind', line: 2, document: 0 })]);
    expect(found[0]!.message).toMatch(
      /not "ConfigMap": create config maps in Slipway \(Config maps\) and bind them by name$/,
    );
  });

  it('places an inline pipelineSpec issue at its line and column', () => {
    const found = errors(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineSpec:
    tasks:
      - name: a
        runAfter: [nowhere]
        taskRef: { name: echo }
        params: [{ name: text, value: hi }]
`);
    expect(found).toContainEqual(
      expect.objectContaining({ path: 'spec.pipelineSpec.tasks[0].runAfter[0]', line: 8 }),
    );
  });

  it("refuses a taskRunSpec naming a task the document's pipeline does not have", () => {
    const found = errors(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: r }
spec:
  pipelineSpec:
    tasks: [{ name: a, taskRef: { name: echo }, params: [{ name: text, value: hi }] }]
  taskRunSpecs:
    - pipelineTaskName: b
`);
    expect(found).toEqual([
      expect.objectContaining({
        path: 'spec.taskRunSpecs[0].pipelineTaskName',
        rule: 'unknown-pipeline-task',
        line: 8,
      }),
    ]);
  });
});

describe('readRunDocument: TaskRun', () => {
  it('reads a TaskRun with an inline taskSpec and an array param as a one-task pipeline (Tekton example)', () => {
    const doc = read(example('array-default.yaml'));
    expect(doc.kind).toBe('TaskRun');
    expect(doc.metadata.generateName).toBe('array-with-default-');
    expect(doc.params).toEqual({ 'array-to-echo': ['foo', 'bar'] });
    const spec = doc.adhoc!.spec as { params: unknown[]; tasks: { name: string; params: unknown[] }[] };
    expect(spec.params).toEqual([{ name: 'array-to-echo', type: 'array' }]);
    expect(spec.tasks[0]!.name).toBe('array-with-default');
    expect(spec.tasks[0]!.params).toEqual([{ name: 'array-to-echo', value: ['$(params.array-to-echo[*])'] }]);
  });

  it('reads a taskRef to a task template with timeout, retries and workspaces', () => {
    const doc = read(`apiVersion: tekton.dev/v1
kind: TaskRun
metadata: { name: say-hi }
spec:
  taskRef: { name: echo }
  params: [{ name: text, value: hi }]
  timeout: 5m
  retries: 2
  workspaces: [{ name: scratch, emptyDir: {} }]
`);
    const task = (doc.adhoc!.spec.tasks as Record<string, unknown>[])[0]!;
    expect(task).toMatchObject({ name: 'echo', taskRef: { name: 'echo' }, timeout: '5m', retries: 2 });
    expect(doc.timeoutMs).toBe(300_000);
    expect(doc.workspaces).toEqual([{ name: 'scratch', emptyDir: {} }]);
  });

  it('takes a taskRef of kind "task" as a Task, as Tekton does (taskruns/beta/emit-array-results.yaml)', () => {
    const doc = read(`apiVersion: tekton.dev/v1
kind: TaskRun
metadata: { name: say-hi }
spec:
  taskRef: { name: echo, kind: task }
  params: [{ name: text, value: hi }]
`);
    const task = (doc.adhoc!.spec.tasks as Record<string, unknown>[])[0]!;
    expect(task).toMatchObject({ name: 'echo', taskRef: { name: 'echo' } });
  });

  it.each([
    ['an unknown task', 'taskRef: { name: nope }', 'spec.taskRef.name', 'unknown-task'],
    [
      "a pod template's DNS policy Tekton does not take",
      'taskRef: { name: echo }\n  podTemplate: { dnsPolicy: ClusterFirstWithHostNet }',
      'spec.podTemplate.dnsPolicy',
      'dns-policy',
    ],
    [
      'step overrides',
      'taskRef: { name: echo }\n  stepSpecs: [{ name: say, computeResources: {} }]',
      'spec.stepSpecs',
      'unsupported',
    ],
    [
      'a service account that is not a name',
      'taskRef: { name: echo }\n  serviceAccountName: "robot:x"',
      'spec.serviceAccountName',
      'service-account',
    ],
    [
      'both taskRef and taskSpec',
      'taskRef: { name: echo }\n  taskSpec: { steps: [{ image: a, script: b }] }',
      'spec',
      'task',
    ],
    ['a StepAction kind', 'taskRef: { name: echo, kind: StepAction }', 'spec.taskRef.kind', 'unsupported'],
  ])('refuses %s', (_what, spec, path, rule) => {
    const found = errors(
      `apiVersion: tekton.dev/v1\nkind: TaskRun\nmetadata: { name: t }\nspec:\n  ${spec}\n`,
    );
    expect(found).toContainEqual(expect.objectContaining({ path, rule }));
    expect(found.every((e) => e.line !== undefined)).toBe(true);
  });

  it("names an inline taskSpec issue at the TaskRun's own path and line", () => {
    const found = errors(`apiVersion: tekton.dev/v1
kind: TaskRun
metadata: { name: t }
spec:
  taskSpec:
    steps:
      - name: a
        image: alpine
        script: echo $(params.missing)
`);
    expect(found[0]!.path).toMatch(/^spec\.taskSpec\.steps\[0\]/);
    expect(found[0]!.line).toBeGreaterThanOrEqual(7);
  });
});

describe('childName (the TaskRun names of a PipelineRun)', () => {
  // the examples of tektoncd/pipeline docs/pipelineruns.md ("Monitoring execution status")
  it.each([
    ['pipeline-run', 'task1', 'pipeline-run-task1'],
    [
      'pipeline-run',
      'task2-0123456789-0123456789-0123456789-0123456789-0123456789',
      'pipeline-runee4a397d6eab67777d4e6f9991cd19e6-task2-0123456789-0',
    ],
    [
      'pipeline-run-0123456789-0123456789-0123456789-0123456789',
      'task3',
      'pipeline-run-0123456789-0123456789-0123456789-0123456789-task3',
    ],
    [
      'pipeline-run-0123456789-0123456789-0123456789-0123456789',
      'task2-0123456789-0123456789-0123456789-0123456789-0123456789',
      'pipeline-run-0123456789-012345607ad8c7aac5873cdfabe472a68996b5c',
    ],
  ])('%s + %s → %s', (run, task, name) => {
    expect(childName(run, `-${task}`)).toBe(name);
  });
});
