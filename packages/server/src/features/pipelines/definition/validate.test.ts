import { describe, expect, it } from 'vitest';
import type { DefinitionIssue } from './definition-issue.js';
import type { Pipeline, PipelineTask } from './model.js';
import { buildAndDeploy, catalogue } from './test-fixtures.js';
import { validatePipeline } from './validate.js';

const errorsOf = (pipeline: Pipeline): DefinitionIssue[] => {
  const result = validatePipeline(pipeline, catalogue());
  return result.ok ? [] : result.errors;
};

/** The build-and-deploy pipeline with one change. */
function changed(edit: (tasks: PipelineTask[], pipeline: Pipeline) => void): Pipeline {
  const pipeline = buildAndDeploy();
  edit(pipeline.spec.tasks, pipeline);
  return pipeline;
}

const brief = (errors: DefinitionIssue[]) =>
  errors.map(({ path, rule, message }) => ({ path, rule, message }));

describe('validatePipeline', () => {
  it('accepts git-clone → build / test → deploy with results, workspaces, when and finally', () => {
    expect(validatePipeline(buildAndDeploy(), catalogue())).toEqual({ ok: true });
  });

  it('accepts a Map as the catalogue', () => {
    expect(validatePipeline(buildAndDeploy(), new Map(Object.entries(catalogue())))).toEqual({ ok: true });
  });

  it('reports an unknown runAfter target at its path', () => {
    const errors = errorsOf(changed((t) => (t[2]!.runAfter = ['bild'])));
    expect(brief(errors)).toEqual([
      { path: 'spec.tasks[2].runAfter[0]', rule: 'unknown-run-after', message: 'unknown task "bild"' },
    ]);
  });

  it('reports duplicate task names across tasks and finally', () => {
    const errors = errorsOf(changed((_, p) => (p.spec.finally![0]!.name = 'build')));
    expect(brief(errors)).toContainEqual({
      path: 'spec.finally[0].name',
      rule: 'duplicate-task',
      message:
        'duplicate task name "build" (first at spec.tasks[1]): names are unique across tasks and finally',
    });
  });

  it('reports a task name that is not a DNS label', () => {
    const errors = errorsOf(changed((t) => (t[2]!.name = 'Unit_Tests')));
    expect(errors[0]).toMatchObject({ path: 'spec.tasks[2].name', rule: 'invalid-name' });
  });

  it('reports an unknown taskRef', () => {
    const errors = errorsOf(changed((t) => (t[1]!.taskRef = { name: 'kaniko' })));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[1].taskRef.name',
        rule: 'unknown-task-ref',
        message: 'unknown task "kaniko": not in the task catalogue and no taskSpec given',
      },
    ]);
  });

  it('refuses remote resolution and a task with neither taskRef nor taskSpec', () => {
    const errors = errorsOf(
      changed((t) => {
        t[1]!.taskRef = { resolver: 'git' };
        delete t[2]!.taskRef;
      }),
    );
    expect(errors.map((e) => [e.path, e.rule])).toEqual([
      ['spec.tasks[1].taskRef.resolver', 'unsupported'],
      ['spec.tasks[2]', 'task-ref'],
    ]);
  });

  it('names a cycle through runAfter', () => {
    const errors = errorsOf(changed((t) => (t[0]!.runAfter = ['deploy'])));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[0]',
        rule: 'cycle',
        message:
          'cycle: fetch-source → build → deploy → fetch-source (through runAfter and result references)',
      },
    ]);
  });

  it('names a cycle made by a result reference', () => {
    const errors = errorsOf(
      changed((t) => t[0]!.params!.push({ name: 'revision', value: '$(tasks.build.results.IMAGE_DIGEST)' })),
    );
    expect(errors.find((e) => e.rule === 'cycle')?.message).toMatch(
      /^cycle: fetch-source → build → fetch-source/,
    );
  });

  it('reports a missing required param', () => {
    const errors = errorsOf(changed((t) => (t[0]!.params = t[0]!.params!.filter((p) => p.name !== 'url'))));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[0].params',
        rule: 'missing-param',
        message: 'task "git-clone" needs param "url" (it has no default)',
      },
    ]);
  });

  it('reports a param the task does not declare', () => {
    const errors = errorsOf(changed((t) => t[0]!.params!.push({ name: 'depth', value: '1' })));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[0].params[2].name',
        rule: 'unknown-param',
        message: 'task "git-clone" declares no param "depth"',
      },
    ]);
  });

  it('reports a param value of the wrong type', () => {
    const errors = errorsOf(changed((t) => (t[2]!.params = [{ name: 'args', value: 'test' }])));
    expect(errors[0]).toMatchObject({
      path: 'spec.tasks[2].params[0].value',
      rule: 'param-type',
      message: 'param "args" of task "npm-test" is of type array, given a string',
    });
  });

  it('reports a reference to a task that does not exist', () => {
    const errors = errorsOf(changed((t) => (t[3]!.params![0]!.value = '$(tasks.bild.results.IMAGE_DIGEST)')));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[3].params[0].value',
        rule: 'unknown-task-in-reference',
        message: '$(tasks.bild.results.IMAGE_DIGEST): unknown task "bild"',
      },
    ]);
  });

  it('reports a result the task does not declare', () => {
    const errors = errorsOf(changed((t) => (t[3]!.params![0]!.value = '$(tasks.build.results.DIGEST)')));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[3].params[0].value',
        rule: 'result-reference',
        message: '$(tasks.build.results.DIGEST): task "build" declares no result "DIGEST"',
      },
    ]);
  });

  it('accepts a result reference to a task that is not an ancestor: it adds the ordering', () => {
    const pipeline = changed(
      (t) => (t[2]!.params = [{ name: 'args', value: ['test', '$(tasks.build.results.IMAGE_URL)'] }]),
    );
    expect(validatePipeline(pipeline, catalogue())).toEqual({ ok: true });
  });

  it('refuses a task reading the results of a finally task', () => {
    const pipeline = changed((t, p) => {
      p.spec.finally![0]!.taskSpec!.results = [{ name: 'sent', type: 'string' }];
      t[3]!.params![0]!.value = '$(tasks.notify.results.sent)';
    });
    expect(brief(errorsOf(pipeline))).toEqual([
      {
        path: 'spec.tasks[3].params[0].value',
        rule: 'result-reference',
        message:
          '$(tasks.notify.results.sent): task "notify" is a finally task: no task can use the results of finally tasks',
      },
    ]);
  });

  it('reports an undeclared pipeline param', () => {
    const errors = errorsOf(changed((t) => (t[0]!.params![1]!.value = '$(params.revison)')));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[0].params[1].value',
        rule: 'unknown-param-reference',
        message: '$(params.revison): the pipeline declares no param "revison"',
      },
    ]);
  });

  it('reports a workspace binding to an undeclared pipeline workspace', () => {
    const errors = errorsOf(changed((t) => (t[0]!.workspaces![0]!.workspace = 'source')));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[0].workspaces[0].workspace',
        rule: 'unknown-workspace',
        message: 'the pipeline declares no workspace "source"',
      },
    ]);
  });

  it('reports a required task workspace left unbound, but not an optional one', () => {
    const errors = errorsOf(
      changed((t) => (t[1]!.workspaces = t[1]!.workspaces!.filter((w) => w.name !== 'source'))),
    );
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[1].workspaces',
        rule: 'missing-workspace',
        message: 'task "buildah" needs workspace "source"',
      },
    ]);
    const noOptional = changed(
      (t) => (t[1]!.workspaces = t[1]!.workspaces!.filter((w) => w.name === 'source')),
    );
    expect(validatePipeline(noOptional, catalogue())).toEqual({ ok: true });
  });

  it('defaults a binding workspace to its name (propagated workspaces)', () => {
    const pipeline = changed((t, p) => {
      p.spec.workspaces!.push({ name: 'source' });
      t[2]!.workspaces = [{ name: 'source' }];
    });
    expect(validatePipeline(pipeline, catalogue())).toEqual({ ok: true });
  });

  it('refuses a when operator other than in / notin', () => {
    const errors = errorsOf(changed((t) => (t[3]!.when![0]!.operator = 'equals')));
    expect(brief(errors)).toEqual([
      {
        path: 'spec.tasks[3].when[0].operator',
        rule: 'when-operator',
        message: 'operator "equals" is not supported: use in or notin',
      },
    ]);
  });

  it('refuses a when without values', () => {
    const errors = errorsOf(changed((t) => (t[3]!.when![0]!.values = [])));
    expect(errors[0]).toMatchObject({ path: 'spec.tasks[3].when[0].values', rule: 'when-values' });
  });

  it('refuses $(tasks.<t>.status) of an unknown task in finally', () => {
    const errors = errorsOf(
      changed((_, p) => (p.spec.finally![0]!.params![1]!.value = '$(tasks.deplot.status)')),
    );
    expect(brief(errors)).toEqual([
      {
        path: 'spec.finally[0].params[1].value',
        rule: 'unknown-task-in-reference',
        message: '$(tasks.deplot.status): unknown task "deplot"',
      },
    ]);
  });

  it('refuses task statuses outside finally', () => {
    const errors = errorsOf(changed((t) => (t[3]!.params![0]!.value = '$(tasks.build.status)')));
    expect(errors[0]).toMatchObject({
      rule: 'status-reference',
      message: '$(tasks.build.status): only finally tasks can read task statuses',
    });
  });

  it('refuses runAfter in finally tasks and runAfter a finally task', () => {
    const errors = errorsOf(
      changed((t, p) => {
        p.spec.finally![0]!.runAfter = ['deploy'];
        t[3]!.runAfter = ['notify'];
      }),
    );
    expect(errors.map((e) => [e.path, e.rule])).toEqual([
      ['spec.tasks[3].runAfter[0]', 'run-after-finally'],
      ['spec.finally[0].runAfter', 'finally-run-after'],
    ]);
  });

  it('reports pipeline results reading unknown results', () => {
    const errors = errorsOf(
      changed((_, p) => (p.spec.results![0]!.value = '$(tasks.fetch-source.results.sha)')),
    );
    expect(errors[0]).toMatchObject({ path: 'spec.results[0].value', rule: 'result-reference' });
  });

  it('validates an inline taskSpec: its steps and its params, seeing pipeline params', () => {
    const errors = errorsOf(
      changed((_, p) => {
        const step = p.spec.finally![0]!.taskSpec!.steps[0]!;
        step.script = 'echo $(params.image) $(params.nope)';
        delete step.image;
      }),
    );
    expect(brief(errors)).toEqual([
      {
        path: 'spec.finally[0].taskSpec.steps[0].image',
        rule: 'step-image',
        message: 'step "report" needs an image',
      },
      {
        path: 'spec.finally[0].taskSpec.steps[0].script',
        rule: 'unknown-param-reference',
        message: '$(params.nope): the task declares no param "nope"',
      },
    ]);
  });

  it('reports every duplicate pipeline param, workspace and result', () => {
    const errors = errorsOf(
      changed((_, p) => {
        p.spec.params!.push({ name: 'image', type: 'string' });
        p.spec.workspaces!.push({ name: 'shared-data' });
      }),
    );
    expect(errors.map((e) => [e.path, e.rule])).toEqual([
      ['spec.params[4].name', 'duplicate-param'],
      ['spec.workspaces[2].name', 'duplicate-workspace'],
    ]);
  });
});
