import { describe, expect, it } from 'vitest';
import { isTektonObject, parseDefinition } from './parse-document.js';
import { BUILD_YAML, GIT_CLONE_YAML, PIPELINE_YAML } from './test-fixtures.js';

const errorsOf = (text: string) => {
  const parsed = parseDefinition(text);
  if (parsed.ok) throw new Error('expected errors');
  return parsed.errors;
};

describe('parseDefinition', () => {
  it('reads a Task and infers param types from defaults', () => {
    const parsed = parseDefinition(BUILD_YAML);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const [task] = parsed.tasks;
    expect(task?.metadata.name).toBe('buildah');
    expect(task?.spec.params?.map((p) => [p.name, p.type])).toEqual([
      ['IMAGE', 'string'],
      ['CONTEXT', 'string'],
      ['BUILD_EXTRA_ARGS', 'array'],
    ]);
    expect(task?.spec.results?.[0]).toEqual({ name: 'IMAGE_DIGEST', type: 'string' });
  });

  it('reads a multi-document stream of Tasks and one Pipeline', () => {
    const parsed = parseDefinition([GIT_CLONE_YAML, BUILD_YAML, PIPELINE_YAML].join('---\n'));
    expect(parsed.ok && parsed.tasks.map((t) => t.metadata.name)).toEqual(['git-clone', 'buildah']);
    expect(parsed.ok && parsed.pipeline?.spec.tasks.map((t) => t.name)).toEqual([
      'fetch-source',
      'build',
      'test',
      'deploy',
    ]);
  });

  it('reads JSON', () => {
    const json = JSON.stringify({
      apiVersion: 'tekton.dev/v1',
      kind: 'Task',
      metadata: { name: 'hello' },
      spec: { steps: [{ name: 'say', image: 'alpine', script: 'echo hi' }] },
    });
    const parsed = parseDefinition(json);
    expect(parsed.ok && parsed.tasks[0]?.spec.steps[0]?.script).toBe('echo hi');
  });

  it('coerces YAML numbers and booleans in param values to strings', () => {
    const parsed = parseDefinition(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: {generateName: run-}
spec:
  pipelineRef: {name: p}
  params:
    - {name: replicas, value: 3}
    - {name: deploy, value: true}
`);
    expect(parsed.ok && parsed.pipelineRun?.spec.params).toEqual([
      { name: 'replicas', value: '3' },
      { name: 'deploy', value: 'true' },
    ]);
  });

  it('names line and column of a YAML syntax error', () => {
    const [error] = errorsOf('apiVersion: tekton.dev/v1\nkind: Task\nmetadata:\n  name: [oops\nspec: {}\n');
    expect(error?.rule).toBe('yaml-syntax');
    expect(error?.message).toMatch(/^line \d+, column \d+: /);
    expect(error?.line).toBeGreaterThanOrEqual(4);
  });

  it('reports a duplicate key at its line', () => {
    const [error] = errorsOf('apiVersion: tekton.dev/v1\nkind: Task\nkind: Pipeline\n');
    expect(error).toMatchObject({ rule: 'yaml-syntax', line: 3, column: 1 });
    expect(error?.message).toBe('line 3, column 1: Map keys must be unique');
  });

  it('refuses an unknown apiVersion and kind', () => {
    expect(errorsOf('apiVersion: tekton.dev/v1alpha1\nkind: Task\n')[0]).toMatchObject({
      path: 'apiVersion',
      rule: 'api-version',
      message: 'apiVersion "tekton.dev/v1alpha1" is not supported: use tekton.dev/v1 (or tekton.dev/v1beta1)',
    });
    expect(errorsOf('apiVersion: tekton.dev/v1\nkind: TaskRun\n')[0]?.message).toBe(
      'kind "TaskRun" is not supported: use Task, Pipeline, PipelineRun, StepAction',
    );
  });

  it('locates schema errors in the source', () => {
    const errors = errorsOf(`apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: t
spec:
  steps:
    - name: s
      image: alpine
      onError: ignore
`);
    expect(errors[0]).toMatchObject({ path: 'spec.steps[0].onError', rule: 'schema', line: 9, column: 16 });
  });

  it('says which required field is missing', () => {
    const errors = errorsOf('apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: {}\nspec: {tasks: []}\n');
    expect(errors[0]).toMatchObject({ path: 'metadata.name', message: 'name is required' });
  });

  it('refuses an empty text and a non-object', () => {
    expect(errorsOf('')[0]?.rule).toBe('empty');
    expect(errorsOf('# only a comment\n')[0]?.rule).toBe('empty');
    expect(errorsOf('- a\n- b\n')[0]?.rule).toBe('not-tekton');
  });

  it('refuses two Pipelines and two Tasks of one name in one stream', () => {
    const twice = [PIPELINE_YAML, PIPELINE_YAML].join('---\n');
    expect(errorsOf(twice)[0]).toMatchObject({ rule: 'one-per-definition', document: 1 });
    expect(errorsOf([GIT_CLONE_YAML, GIT_CLONE_YAML].join('---\n'))[0]?.message).toBe(
      'Task "git-clone" is defined twice (documents 1 and 2)',
    );
  });

  it('refuses durations it cannot read', () => {
    const errors = errorsOf(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: {name: r}
spec:
  pipelineRef: {name: p}
  timeouts: {pipeline: 1 hour}
`);
    expect(errors[0]).toMatchObject({
      path: 'spec.timeouts.pipeline',
      message: 'not a duration: write it like 1h30m, 10m or 90s',
    });
  });
});

describe('tekton.dev/v1beta1', () => {
  it('normalises a PipelineRun: timeout and serviceAccountName move to their v1 places', () => {
    const parsed = parseDefinition(`apiVersion: tekton.dev/v1beta1
kind: PipelineRun
metadata: {name: r}
spec:
  pipelineRef: {name: p}
  timeout: 1h30m
  serviceAccountName: builder
`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.pipelineRun?.apiVersion).toBe('tekton.dev/v1');
    expect(parsed.pipelineRun?.spec.timeouts).toEqual({ pipeline: '1h30m' });
    expect(parsed.pipelineRun?.spec.taskRunTemplate).toEqual({ serviceAccountName: 'builder' });
    expect(parsed.warnings[0]?.rule).toBe('v1beta1-normalised');
  });

  it('refuses PipelineResources with a clear error', () => {
    const errors = errorsOf(`apiVersion: tekton.dev/v1beta1
kind: Pipeline
metadata: {name: p}
spec:
  resources:
    - {name: source-repo, type: git}
  tasks:
    - name: build
      taskRef: {name: build}
      resources:
        inputs:
          - {name: source, resource: source-repo}
`);
    expect(errors.map((e) => [e.path, e.rule])).toEqual([
      ['spec.resources', 'v1beta1-resources'],
      ['spec.tasks[0].resources', 'v1beta1-resources'],
    ]);
    expect(errors[0]?.message).toMatch(/PipelineResources .* are not supported: use workspaces/);
    expect(errors[1]).toMatchObject({ line: 11, column: 9 });
  });
});

describe('isTektonObject', () => {
  it('guards on apiVersion and kind', () => {
    expect(isTektonObject({ apiVersion: 'tekton.dev/v1', kind: 'Pipeline' })).toBe(true);
    expect(isTektonObject({ apiVersion: 'tekton.dev/v1beta1', kind: 'Task' })).toBe(true);
    expect(isTektonObject({ apiVersion: 'v1', kind: 'ConfigMap' })).toBe(false);
    expect(isTektonObject(null)).toBe(false);
  });
});
