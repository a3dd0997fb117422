import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';
import type { Task } from './model.js';
import { parseDefinition } from './parse-document.js';
import { resolveTaskRun } from './resolve-task-run.js';
import type { StepAction } from './step-action.js';

/*
 * StepActions and step results, from tektoncd/pipeline docs/stepactions.md and
 * examples/v1/taskruns/stepaction-*.yaml (the TaskRuns' taskSpecs written as Tasks).
 */

const STEP_ACTION_USING_PARAMS = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: stepaction-using-params
spec:
  params:
    - name: gitrepo
      type: object
      properties:
        url:
          type: string
        commit:
          type: string
    - name: flags
      type: array
    - name: outputPath
      type: string
      default: "/workspace"
  image: some-git-image
  args: [
    "-url=$(params.gitrepo.url)",
    "-revision=$(params.gitrepo.commit)",
    "-output=$(params.outputPath)",
    "$(params.flags[*])",
  ]
`;

/** docs/stepactions.md "Passing Results between Steps" (examples/v1/taskruns/stepaction-passing-results.yaml). */
const PASSING_RESULTS = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: step-action
spec:
  params:
    - name: param1
      type: array
    - name: param2
      type: string
    - name: param3
      type: object
      properties:
        IMAGE_URL:
          type: string
        IMAGE_DIGEST:
          type: string
  image: bash
  env:
    - name: STRINGPARAM
      value: $(params.param2)
  args: [
    "$(params.param1[*])",
    "$(params.param1[0])",
    "$(params.param3.IMAGE_URL)",
    "$(params.param3.IMAGE_DIGEST)",
  ]
  script: |
    echo "$@" "$STRINGPARAM"
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: step-action-run
spec:
  steps:
    - name: inline-step
      results:
        - name: result1
          type: array
        - name: result2
          type: string
        - name: result3
          type: object
          properties:
            IMAGE_URL:
              type: string
            IMAGE_DIGEST:
              type: string
      image: alpine
      script: |
        echo -n "[\\"image1\\", \\"image2\\", \\"image3\\"]" | tee $(step.results.result1.path)
        echo -n "foo" | tee $(step.results.result2.path)
        echo -n "{\\"IMAGE_URL\\":\\"ar.com\\", \\"IMAGE_DIGEST\\":\\"sha234\\"}" | tee $(step.results.result3.path)
    - name: action-runner
      ref:
        name: step-action
      params:
        - name: param1
          value: $(steps.inline-step.results.result1[*])
        - name: param2
          value: $(steps.inline-step.results.result2)
        - name: param3
          value: $(steps.inline-step.results.result3[*])
`;

function checked(text: string, stepActions?: Map<string, StepAction>) {
  const result = checkDefinition(text, {}, { stepActions });
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
  return result;
}

function issues(text: string, stepActions?: Map<string, StepAction>) {
  const result = checkDefinition(text, {}, { stepActions });
  return result.ok ? [] : result.errors.map((e) => ({ path: e.path, rule: e.rule, message: e.message }));
}

const actionsOf = (text: string) => {
  const parsed = parseDefinition(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return new Map(parsed.stepActions.map((a) => [a.metadata.name, a]));
};

const resolve = (
  task: Task,
  params: { name: string; value: string | string[] | Record<string, string> }[] = [],
) =>
  resolveTaskRun({ name: 'build', taskRef: { name: task.metadata.name }, params }, task, {
    resultsDir: '/runs/r1/results/build',
    containerPaths: true,
    context: {
      pipelineRun: { name: 'r1', uid: 'u-1', namespace: 'default' },
      taskRun: { name: 'r1-build', uid: 'tr-1' },
    },
  });

describe('StepActions', () => {
  it('reads a StepAction in v1beta1 and v1alpha1, and names the versions for another', () => {
    const v1alpha1 = STEP_ACTION_USING_PARAMS.replace('v1beta1', 'v1alpha1');
    expect(parseDefinition(STEP_ACTION_USING_PARAMS).ok && parseDefinition(v1alpha1).ok).toBe(true);
    const v1 = parseDefinition(STEP_ACTION_USING_PARAMS.replace('tekton.dev/v1beta1', 'tekton.dev/v1'));
    expect(v1.ok ? [] : v1.errors.map((e) => [e.path, e.rule, e.message])).toEqual([
      [
        'apiVersion',
        'api-version',
        'apiVersion "tekton.dev/v1" is not supported for a StepAction: use tekton.dev/v1beta1 or tekton.dev/v1alpha1',
      ],
    ]);
  });

  it('runs the StepAction of a ref step with its params: objects, arrays, defaults and task params', () => {
    const task = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: clone
spec:
  params:
    - name: url
    - name: extra
      type: array
  steps:
    - name: clone
      ref:
        name: stepaction-using-params
      params:
        - name: gitrepo
          value:
            url: $(params.url)
            commit: abc123
        - name: flags
          value: $(params.extra[*])
      onError: continue
      timeout: 1m
`;
    const result = checked(task, actionsOf(STEP_ACTION_USING_PARAMS));
    const run = resolve(result.tasks[0]!, [
      { name: 'url', value: 'https://github.com/acme/app' },
      { name: 'extra', value: ['--depth', '1'] },
    ]);
    expect(run.steps[0]).toMatchObject({
      name: 'clone',
      image: 'some-git-image',
      args: ['-url=https://github.com/acme/app', '-revision=abc123', '-output=/workspace', '--depth', '1'],
      onError: 'continue',
      timeoutMs: 60_000,
    });
  });

  it("merges object params key by key over the StepAction's defaults (examples/v1/taskruns/stepaction-params.yaml)", () => {
    const text = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: step-action
spec:
  params:
    - name: string-param
      default: "a string param"
    - name: array-param
      type: array
      default: [an, array, param]
    - name: object-param
      type: object
      properties:
        key1: { type: string }
        key2: { type: string }
        key3: { type: string }
      default:
        key1: "step-action default key1"
        key2: "step-action default key2"
        key3: "step-action default key3"
    - name: enum-param
      type: object
      properties:
        v1: { type: string }
      default:
        v1: "enum1"
  env:
    - name: arrayparam0
      value: $(params.array-param[0])
    - name: arrayparam1
      value: $(params.array-param[1])
    - name: arrayparam2
      value: $(params.array-param[2])
    - name: stringparam
      value: $(params.string-param)
    - name: objectparamkey1
      value: $(params.object-param.key1)
    - name: objectparamkey2
      value: $(params.object-param.key2)
    - name: objectparamkey3
      value: $(params.object-param.key3)
    - name: enumparamkey1
      value: $(params.enum-param.v1)
  image: ubuntu
  script: env
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: step-action-run
spec:
  params:
    - name: stringparam
    - name: arrayparam
      type: array
    - name: objectparam
      properties:
        key1: { type: string }
        key2: { type: string }
      default:
        key1: "taskspec default key1"
        key2: "taskspec default key2"
  steps:
    - name: action-runner
      ref:
        name: step-action
      params:
        - name: string-param
          value: $(params.stringparam)
        - name: array-param
          value: $(params.arrayparam[*])
        - name: object-param
          value: $(params.objectparam[*])
`;
    const run = resolve(checked(text).tasks[0]!, [
      { name: 'stringparam', value: 'taskrun stringparam' },
      { name: 'arrayparam', value: ['taskrun', 'array', 'param'] },
      { name: 'objectparam', value: { key2: 'taskrun key2' } },
    ]);
    expect(run.steps[0]!.env).toEqual({
      arrayparam0: 'taskrun',
      arrayparam1: 'array',
      arrayparam2: 'param',
      stringparam: 'taskrun stringparam',
      objectparamkey1: 'taskspec default key1',
      objectparamkey2: 'taskrun key2',
      objectparamkey3: 'step-action default key3',
      enumparamkey1: 'enum1',
    });
  });

  it('takes a StepAction from the same text, and passes step results on to be read when the step runs', () => {
    const result = checked(PASSING_RESULTS);
    const run = resolve(result.tasks[0]!);
    const [inline, action] = run.steps;
    // kept for the executor, which fills them when each step starts (executor/step-values.ts)
    expect(inline!.script).toContain('tee $(step.results.result1.path)');
    expect(action).toMatchObject({
      image: 'bash',
      env: { STRINGPARAM: '$(steps.inline-step.results.result2)' },
      args: [
        '$(steps.inline-step.results.result1[*])',
        '$(steps.inline-step.results.result1[0])',
        '$(steps.inline-step.results.result3.IMAGE_URL)',
        '$(steps.inline-step.results.result3.IMAGE_DIGEST)',
      ],
    });
  });

  it('lifts a step result into a task result (docs: "Fetching Emitted Results from StepActions")', () => {
    const text = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: step-action
spec:
  image: alpine
  results:
    - name: result1
    - name: result2
  script: |
    echo "I am a Step Action!!!" >> $(step.results.result1.path)
    echo "I am a hidden step action!!!" >> $(step.results.result2.path)
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: step-action-run
spec:
  results:
    - name: step-result
      value: $(steps.action-runner.results.result1)
  steps:
    - name: action-runner
      ref:
        name: step-action
`;
    const run = resolve(checked(text).tasks[0]!);
    expect(run.results).toEqual(['step-result']);
    expect(run.resultsFromSteps).toEqual({ 'step-result': { step: 'action-runner', result: 'result1' } });
  });

  it("merges the Task's stepTemplate into a StepAction's step (examples/v1/taskruns/stepactions-steptemplate.yaml)", () => {
    const text = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: step-action
spec:
  image: alpine
  command: ["env"]
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: task-run
spec:
  steps:
    - ref:
        name: step-action
  stepTemplate:
    env:
      - name: foo
        value: bar
`;
    const run = resolve(checked(text).tasks[0]!);
    expect(run.steps).toMatchObject([
      { name: 'unnamed-0', image: 'alpine', command: ['env'], env: { foo: 'bar' } },
    ]);
  });

  it('refuses what Tekton refuses, naming the step and the rule', () => {
    const task = (step: string) => `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: t
spec:
  steps:
${step}`;
    const actions = actionsOf(STEP_ACTION_USING_PARAMS);
    expect(
      issues(
        task('    - name: a\n      ref: { name: stepaction-using-params }\n      image: ubuntu\n'),
        actions,
      ),
    ).toEqual([
      {
        path: 'spec.steps[0].image',
        rule: 'step-action-ref',
        message: 'step "a": image cannot be used with ref (the StepAction gives it)',
      },
    ]);
    expect(issues(task('    - name: a\n      ref: { name: nope }\n'), actions)).toEqual([
      {
        path: 'spec.steps[0].ref.name',
        rule: 'unknown-step-action',
        message:
          'step "a": no StepAction "nope" (store it with the task templates, or put it in the same text)',
      },
    ]);
    expect(issues(task('    - name: a\n      ref: { resolver: git }\n'), actions)[0]).toMatchObject({
      path: 'spec.steps[0].ref.resolver',
      rule: 'unsupported',
    });
    expect(
      issues(
        task(
          '    - name: a\n      image: alpine\n      script: "true"\n      params: [{ name: x, value: y }]\n',
        ),
      ),
    ).toEqual([
      {
        path: 'spec.steps[0].params',
        rule: 'step-params',
        message:
          'step "a": params can only be given to a step that references a StepAction (an inline step reads the Task\'s params)',
      },
    ]);
    // gitrepo and flags have no default
    expect(issues(task('    - name: a\n      ref: { name: stepaction-using-params }\n'), actions)).toEqual([
      {
        path: 'spec.steps[0].params',
        rule: 'step-action-param',
        message:
          'step "a" (StepAction "stepaction-using-params") needs param "gitrepo": no value and no default',
      },
      {
        path: 'spec.steps[0].params',
        rule: 'step-action-param',
        message:
          'step "a" (StepAction "stepaction-using-params") needs param "flags": no value and no default',
      },
    ]);
  });

  it('binds the volumes a Task names to the volumeMounts of a StepAction (docs: "Declaring VolumeMounts")', () => {
    const text = `apiVersion: tekton.dev/v1alpha1
kind: StepAction
metadata:
  name: myStep
spec:
  params:
    - name: registryConfig
    - name: otherConfig
  volumeMounts:
    - name: $(params.registryConfig)
      mountPath: /registry-config
    - name: $(params.otherConfig)
      mountPath: /other-config
  image: alpine
  script: ls /registry-config /other-config
---
apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: t
spec:
  volumes:
    - name: registry
      secret: { secretName: registry-config }
    - name: other
      emptyDir: {}
  steps:
    - name: s
      ref: { name: myStep }
      params:
        - name: registryConfig
          value: registry
        - name: otherConfig
          value: $(params.nope)
`;
    expect(issues(text).map((i) => [i.path, i.rule])).toEqual([
      ['spec.steps[0].volumeMounts[1].name', 'unknown-param-reference'],
    ]);
    const fixed = text.replace('value: $(params.nope)', 'value: other');
    expect(resolve(checked(fixed).tasks[0]!).steps[0]!.volumeMounts).toEqual([
      { name: 'registry', mountPath: '/registry-config' },
      { name: 'other', mountPath: '/other-config' },
    ]);
    // a Task param may name the volume too: Tekton substitutes volumeMount names
    const byParam = fixed
      .replace('value: other', 'value: $(params.vol)')
      .replace('spec:\n  volumes:', 'spec:\n  params: [{ name: vol, default: other }]\n  volumes:');
    expect(resolve(checked(byParam).tasks[0]!).steps[0]!.volumeMounts![1]).toEqual({
      name: 'other',
      mountPath: '/other-config',
    });
    expect(
      issues(text.replace('value: $(params.nope)', 'value: missing')).map((i) => [i.path, i.rule]),
    ).toEqual([['spec.steps[0].volumeMounts[1].name', 'unknown-volume']]);
    const unbound = text.replace('    - name: $(params.otherConfig)', '    - name: fixed-name');
    expect(issues(unbound).map((i) => [i.path, i.rule])).toContainEqual([
      'spec.volumeMounts[1].name',
      'step-action-volume',
    ]);
  });

  it("refuses params in a StepAction's script, and undeclared params and results", () => {
    const action = `apiVersion: tekton.dev/v1beta1
kind: StepAction
metadata:
  name: bad
spec:
  params: [{ name: p }]
  image: alpine
  env: [{ name: X, value: $(params.q) }]
  script: echo $(params.p) > $(step.results.out.path)
`;
    expect(issues(action).map((i) => [i.path, i.rule])).toEqual([
      ['spec.env[0].value', 'unknown-param-reference'],
      ['spec.script', 'step-action-script-param'],
      ['spec.script', 'unknown-result'],
    ]);
  });
});

describe('step results and exit codes', () => {
  const task = (steps: string, results = '') => `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: t
spec:
${results}  steps:
${steps}`;

  it("accepts docs/tasks.md's $(steps.step-<name>.exitCode.path) and $(credentials.path)", () => {
    const text = task(`    - name: unit-test
      image: alpine
      onError: continue
      script: exit 1
    - name: check
      image: alpine
      script: |
        cat $(steps.step-unit-test.exitCode.path)
        ls $(credentials.path)
`);
    const run = resolve(checked(text).tasks[0]!);
    expect(run.steps[1]!.script).toContain('cat $(steps.step-unit-test.exitCode.path)');
  });

  it('refuses step results where Tekton does: undeclared, later steps, scripts, sidecars, task results', () => {
    const text = task(
      `    - name: first
      image: alpine
      results: [{ name: out }]
      env: [{ name: LATER, value: $(steps.second.results.out) }]
      script: echo > $(step.results.nope.path)
    - name: second
      image: alpine
      results: [{ name: out }]
      args: [$(steps.first.results.missing)]
      script: echo $(steps.first.results.out); cat $(steps.step-third.exitCode.path)
`,
      `  results:
    - name: r
      value: $(steps.first.results.nope)
    - name: s
      value: prefix-$(steps.first.results.out)
`,
    );
    expect(issues(text).map((i) => [i.path, i.rule])).toEqual([
      ['spec.results[0].value', 'unknown-step-result'],
      ['spec.results[1].value', 'task-result-value'],
      ['spec.steps[0].env[0].value', 'step-order'],
      ['spec.steps[0].script', 'unknown-step-result'],
      ['spec.steps[1].args[0]', 'unknown-step-result'],
      ['spec.steps[1].script', 'step-result-usage'],
      ['spec.steps[1].script', 'unknown-step'],
    ]);
  });
});
