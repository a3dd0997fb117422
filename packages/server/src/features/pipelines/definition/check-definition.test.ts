import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';
import { resolvePipelineParams, resolvePipelineResults } from './pipeline-values.js';
import { validatePipeline } from './validate.js';
import {
  BUILD_YAML,
  DEPLOY_YAML,
  GIT_CLONE_YAML,
  PIPELINE_YAML,
  TEST_YAML,
  buildAndDeploy,
  catalogue,
} from './test-fixtures.js';

describe('checkDefinition', () => {
  it('accepts a pasted stream of Tasks and the Pipeline that uses them', () => {
    const text = [GIT_CLONE_YAML, BUILD_YAML, TEST_YAML, DEPLOY_YAML, PIPELINE_YAML].join('---\n');
    const checked = checkDefinition(text);
    expect(checked.ok && checked.pipeline?.metadata.name).toBe('build-and-deploy');
  });

  it('validates the pipeline against the catalogue plus the tasks in the text', () => {
    const checked = checkDefinition([BUILD_YAML, PIPELINE_YAML].join('---\n'), {
      'git-clone': catalogue()['git-clone'],
    });
    expect(checked.ok ? [] : checked.errors.map((e) => [e.document, e.path, e.rule])).toEqual([
      [1, 'spec.tasks[2].taskRef.name', 'unknown-task-ref'],
      [1, 'spec.tasks[3].taskRef.name', 'unknown-task-ref'],
    ]);
  });

  it('validates the pipelineSpec of a PipelineRun under its own path', () => {
    const checked = checkDefinition(`apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: {generateName: hello-}
spec:
  pipelineSpec:
    tasks:
      - name: hello
        runAfter: [nobody]
        taskSpec:
          steps:
            - {name: say, image: alpine, script: echo hello}
`);
    expect(checked.ok ? [] : checked.errors.map((e) => [e.path, e.rule])).toEqual([
      ['spec.pipelineSpec.tasks[0].runAfter[0]', 'unknown-run-after'],
    ]);
  });
});

describe('matrix validation', () => {
  it('refuses a matrix param the task does not declare, and string results of a matrix', () => {
    const pipeline = buildAndDeploy();
    const test = pipeline.spec.tasks[2]!;
    test.matrix = { params: [{ name: 'node', value: ['20', '22'] }] };
    const build = pipeline.spec.tasks[1]!;
    build.matrix = { params: [{ name: 'CONTEXT', value: ['api', 'web'] }] };
    const result = validatePipeline(pipeline, catalogue());
    expect(result.ok ? [] : result.errors.map((e) => [e.path, e.rule, e.message])).toEqual([
      [
        'spec.tasks[2].matrix.params[0].name',
        'unknown-param',
        'matrix param "node": task "npm-test" declares no param "node"',
      ],
      [
        'spec.tasks[3].params[0].value',
        'result-reference',
        '$(tasks.build.results.IMAGE_DIGEST): "build" is a matrix, its results are arrays: use $(tasks.build.results.IMAGE_DIGEST[*])',
      ],
    ]);
  });
});

describe('resolvePipelineParams', () => {
  it('applies defaults and reports missing and mistyped params (an undeclared one is kept: Tekton propagates it)', () => {
    expect(resolvePipelineParams(buildAndDeploy(), { 'repo-url': 'u', image: 'i' })).toEqual({
      ok: true,
      params: { 'repo-url': 'u', revision: 'main', image: 'i', deploy: 'true' },
    });
    const bad = resolvePipelineParams(buildAndDeploy(), [
      { name: 'image', value: ['a'] },
      { name: 'colour', value: 'red' },
    ]);
    expect(bad.ok ? [] : bad.errors.map((e) => [e.path, e.rule])).toEqual([
      ['params.repo-url', 'missing-param'],
      ['params.image', 'param-type'],
    ]);
  });

  it('computes pipeline results, leaving out those whose task produced nothing', () => {
    expect(
      resolvePipelineResults(buildAndDeploy(), { taskResults: { 'fetch-source': { commit: '9f3e' } } }),
    ).toEqual({
      commit: '9f3e',
    });
    expect(resolvePipelineResults(buildAndDeploy(), { taskResults: {} })).toEqual({});
  });
});

describe('where a semantic issue is', () => {
  it('marks it at the line and column of what its path names, not on line 1', () => {
    const text = [
      'apiVersion: tekton.dev/v1',
      'kind: Pipeline',
      'metadata:',
      '  name: p',
      'spec:',
      '  tasks:',
      '    - name: a',
      '      taskSpec:',
      '        steps: [{ name: s, image: busybox, script: "true" }]',
      '    - name: b',
      '      runAfter: [nope]',
      '      taskSpec:',
      '        steps: [{ name: s, image: busybox, script: "true" }]',
    ].join('\n');
    const result = checkDefinition(text);
    expect(result.ok).toBe(false);
    const issue = !result.ok ? result.errors.find((e) => e.path.includes('runAfter')) : undefined;
    expect(issue).toMatchObject({ line: 11 });
    expect(issue!.column).toBeGreaterThan(1);
  });
});
