import { describe, expect, it } from 'vitest';
import { SubstitutionError } from './definition-issue.js';
import { findReferences } from './references.js';
import { evaluateWhen, substitute, substituteParamValue, type SubstitutionContext } from './substitute.js';

const ctx: SubstitutionContext = {
  params: {
    url: 'https://github.com/acme/app',
    'dotted.name': 'x',
    flags: ['--verbose', '--pull'],
    git: { url: 'https://git.example/repo', revision: 'v1.2.0' },
  },
  taskResults: { build: { digest: 'sha256:abc', tags: ['1.0', 'latest'] } },
  resultsDir: '/run/results',
  declaredResults: ['commit'],
  workspaces: { source: '/ws/source', cache: null },
  context: {
    pipelineRun: { name: 'build-and-deploy-x7k2p', uid: '3f1c' },
    pipeline: { name: 'build-and-deploy' },
    taskRun: { name: 'build-and-deploy-x7k2p-build' },
  },
};

describe('substitute', () => {
  it('replaces params in all their spellings', () => {
    expect(substitute('git clone $(params.url)', ctx)).toBe('git clone https://github.com/acme/app');
    expect(substitute(`$(params["url"]) $(params['dotted.name'])`, ctx)).toBe(
      'https://github.com/acme/app x',
    );
    expect(substitute('$(params.git.revision) $(params.flags[1])', ctx)).toBe('v1.2.0 --pull');
  });

  it('expands $(params.x[*]) into several elements of an array field', () => {
    expect(substitute(['build', '$(params.flags[*])', '-t', 'app'], ctx)).toEqual([
      'build',
      '--verbose',
      '--pull',
      '-t',
      'app',
    ]);
    expect(substitute(['$(tasks.build.results.tags[*])'], ctx)).toEqual(['1.0', 'latest']);
  });

  it('replaces task results, result paths, workspaces and context', () => {
    expect(substitute('$(tasks.build.results.digest)', ctx)).toBe('sha256:abc');
    expect(substitute('> $(results.commit.path)', ctx)).toBe('> /run/results/commit');
    expect(substitute('cd $(workspaces.source.path)', ctx)).toBe('cd /ws/source');
    expect(substitute('$(workspaces.cache.bound) [$(workspaces.cache.path)]', ctx)).toBe('false []');
    expect(
      substitute(
        '$(context.pipelineRun.name) $(context.pipelineRun.uid) $(context.taskRun.name) $(context.pipeline.name)',
        ctx,
      ),
    ).toBe('build-and-deploy-x7k2p 3f1c build-and-deploy-x7k2p-build build-and-deploy');
  });

  it('leaves shell command substitution and env references alone', () => {
    const script = 'echo "$(date +%s) $(git rev-parse HEAD) $(HOME) $(echo $(params.url))"';
    expect(substitute(script, ctx)).toBe(
      'echo "$(date +%s) $(git rev-parse HEAD) $(HOME) $(echo https://github.com/acme/app)"',
    );
  });

  it('throws a SubstitutionError naming an unknown reference', () => {
    expect(() => substitute('$(params.nope)', ctx)).toThrow(SubstitutionError);
    expect(() => substitute('$(params.nope)', ctx)).toThrow('$(params.nope): no param "nope"');
    expect(() => substitute('$(tasks.test.results.report)', ctx)).toThrow('no results from task "test"');
    expect(() => substitute('$(tasks.build.results.size)', ctx)).toThrow(
      'task "build" did not produce result "size"',
    );
    expect(() => substitute('$(results.other.path)', ctx)).toThrow('the task declares no result "other"');
    expect(() => substitute('$(workspaces.output.path)', ctx)).toThrow('no workspace "output"');
    // step-level variables are the executor's to fill when the step runs (executor/step-values.ts)
    expect(substitute('cat $(steps.step-clone.exitCode.path)', ctx)).toBe(
      'cat $(steps.step-clone.exitCode.path)',
    );
    expect(() => substitute('$(steps.clone.exitCode)', ctx)).toThrow(/malformed/);
  });

  it('refuses arrays where a string is needed', () => {
    expect(() => substitute('$(params.flags)', ctx)).toThrow(
      'param "flags" is an array: reference it with [*]',
    );
    expect(() => substitute('run $(params.flags[*])', ctx)).toThrow(/can only replace a whole array element/);
    expect(() => substitute('$(params.flags[5])', ctx)).toThrow('index 5 is out of range (2 items)');
    expect(() => substitute('$(params.git.branch)', ctx)).toThrow('param "git" has no key "branch"');
  });

  it('resolves finally-task statuses', () => {
    const finallyCtx = { taskStatuses: { build: 'Failed' }, tasksStatus: 'Failed' };
    expect(substitute('$(tasks.status) $(tasks.build.status)', finallyCtx)).toBe('Failed Failed');
    expect(() => substitute('$(tasks.status)', {})).toThrow('only finally tasks see $(tasks.status)');
  });
});

describe('substituteParamValue', () => {
  it('passes a whole array or object through [*]', () => {
    expect(substituteParamValue('$(params.flags[*])', ctx)).toEqual(['--verbose', '--pull']);
    expect(substituteParamValue('$(params.git[*])', ctx)).toEqual(ctx.params!.git);
    expect(substituteParamValue({ repo: '$(params.url)' }, ctx)).toEqual({
      repo: 'https://github.com/acme/app',
    });
  });
});

describe('evaluateWhen', () => {
  const params = { params: { env: 'staging', deploy: 'true', allowed: ['staging', 'prod'] } };

  it('runs with no when expressions', () => {
    expect(evaluateWhen(undefined, params)).toEqual({ run: true, reason: 'no when expressions' });
  });

  it('evaluates in and notin, and arrays in values', () => {
    expect(evaluateWhen([{ input: '$(params.deploy)', operator: 'in', values: ['true'] }], params).run).toBe(
      true,
    );
    expect(
      evaluateWhen([{ input: '$(params.env)', operator: 'in', values: ['$(params.allowed[*])'] }], params)
        .run,
    ).toBe(true);
    expect(evaluateWhen([{ input: '$(params.env)', operator: 'notin', values: ['prod'] }], params).run).toBe(
      true,
    );
  });

  it('explains a false expression', () => {
    expect(evaluateWhen([{ input: '$(params.env)', operator: 'in', values: ['prod'] }], params)).toEqual({
      run: false,
      reason: 'when expression false: $(params.env) = "staging" is not in ["prod"]',
    });
    expect(
      evaluateWhen([{ input: '$(params.env)', operator: 'notin', values: ['staging'] }], params).reason,
    ).toBe('when expression false: $(params.env) = "staging" is in ["staging"]');
  });

  it('needs all expressions to hold, and refuses other operators', () => {
    const when = [
      { input: 'a', operator: 'in', values: ['a'] },
      { input: 'b', operator: 'in', values: ['a'] },
    ];
    expect(evaluateWhen(when, {}).run).toBe(false);
    expect(() => evaluateWhen([{ input: 'a', operator: 'equals', values: ['a'] }], {})).toThrow(
      'when operator "equals" is not supported: use in or notin',
    );
  });
});

describe('findReferences', () => {
  it('parses every Tekton reference kind and ignores the rest', () => {
    const text =
      '$(params.a) $(params.b[*]) $(tasks.t.results.r[0]) $(tasks.t.status) $(tasks.status) $(tasks.m.matrix.length) $(results.r.path) $(workspaces.w.bound) $(context.taskRun.name) $(date)';
    expect(findReferences(text).map((r) => r.kind)).toEqual([
      'param',
      'param',
      'taskResult',
      'taskStatus',
      'tasksStatus',
      'matrixLength',
      'resultPath',
      'workspace',
      'context',
    ]);
  });
});
