import { describe, expect, it } from 'vitest';
import type { TaskSpec } from './model.js';
import { buildah, gitClone } from './test-fixtures.js';
import { validateTask } from './validate-task.js';

const errorsOf = (spec: TaskSpec) => {
  const result = validateTask(spec);
  return result.ok ? [] : result.errors.map(({ path, rule, message }) => ({ path, rule, message }));
};

describe('validateTask', () => {
  it('accepts real tasks', () => {
    expect(validateTask(gitClone())).toEqual({ ok: true });
    expect(validateTask(buildah())).toEqual({ ok: true });
  });

  it("needs an image (or one from the stepTemplate); without script or command it runs the image's entrypoint", () => {
    expect(errorsOf({ steps: [{ name: 'build' }] })).toEqual([
      { path: 'spec.steps[0].image', rule: 'step-image', message: 'step "build" needs an image' },
    ]);
    expect(errorsOf({ steps: [{ name: 'serve', image: 'nginx', args: ['-g', 'daemon off;'] }] })).toEqual([]);
    expect(
      errorsOf({ stepTemplate: { image: 'alpine' }, steps: [{ name: 'a', command: ['true'] }] }),
    ).toEqual([]);
  });

  it('refuses a script with a command, duplicate step names and no steps', () => {
    const spec: TaskSpec = {
      steps: [
        { name: 'a', image: 'alpine', script: 'echo', command: ['sh'] },
        { name: 'a', image: 'alpine', script: 'echo' },
      ],
    };
    expect(errorsOf(spec).map((e) => [e.path, e.rule])).toEqual([
      ['spec.steps[1].name', 'duplicate-step'],
      ['spec.steps[0].script', 'step-script-command'],
    ]);
    expect(errorsOf({ steps: [] })[0]).toMatchObject({ path: 'spec.steps', rule: 'no-steps' });
  });

  it('checks references to params, results and workspaces the task declares', () => {
    const spec: TaskSpec = {
      params: [{ name: 'flags', type: 'array' }],
      steps: [
        {
          name: 's',
          image: 'alpine',
          script: 'echo $(params.flags) > $(results.out.path) in $(workspaces.src.path) $(params.nope)',
        },
      ],
    };
    expect(errorsOf(spec)).toEqual([
      {
        path: 'spec.steps[0].script',
        rule: 'param-usage',
        message: '$(params.flags): param "flags" is an array: use $(params.flags[*])',
      },
      {
        path: 'spec.steps[0].script',
        rule: 'unknown-result',
        message: '$(results.out.path): the task declares no result "out"',
      },
      {
        path: 'spec.steps[0].script',
        rule: 'unknown-workspace',
        message: '$(workspaces.src.path): the task declares no workspace "src"',
      },
      {
        path: 'spec.steps[0].script',
        rule: 'unknown-param-reference',
        message: '$(params.nope): the task declares no param "nope"',
      },
    ]);
  });

  it('refuses a default of the wrong type and unsupported env sources', () => {
    const spec: TaskSpec = {
      params: [{ name: 'args', type: 'array', default: 'x' }],
      steps: [
        {
          name: 's',
          image: 'a',
          script: 'x',
          env: [
            { name: 'A', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'B', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } },
          ],
        },
      ],
    };
    expect(errorsOf(spec).map((e) => [e.path, e.rule])).toEqual([
      ['spec.steps[0].env[0].valueFrom', 'unsupported'],
      ['spec.params[0].default', 'param-type'],
    ]);
  });
});
