import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';
import type { DefinitionIssue } from './definition-issue.js';
import { parseDefinition, parseWithPositions } from './parse-document.js';
import type { Pipeline, PipelineTask, Task } from './model.js';
import { resolvePipelineParams } from './pipeline-values.js';
import { resolveTaskRun, type ResolvedTaskRun } from './resolve-task-run.js';
import { forAttempt } from './retry-count.js';
import { substitute } from './substitute.js';
import { typedResults } from './typed-results.js';
import { validatePipeline } from './validate.js';
import { validateTask } from './validate-task.js';

/* Tekton v1 semantics of params, results and variables (issue 14), from Tekton's docs. */

const parse = <T>(text: string): T => {
  const parsed = parseDefinition(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.documents[0] as T;
};

const task = (spec: string) =>
  parse<Task>(`apiVersion: tekton.dev/v1\nkind: Task\nmetadata: { name: t }\nspec:\n${spec}`);

const issues = (result: { ok: true } | { ok: false; errors: DefinitionIssue[] }) =>
  result.ok ? [] : result.errors.map(({ path, rule, message }) => ({ path, rule, message }));

const run = (t: Task, params: PipelineTask['params'], extra: Partial<PipelineTask> = {}): ResolvedTaskRun =>
  resolveTaskRun({ name: 'x', taskRef: { name: 't' }, params, ...extra }, t, { resultsDir: '/r' });

// docs/tasks.md "Parameter type": the task-with-parameters example, flags written without [*]
const FLAGS = task(`  params:
    - name: flags
      type: array
    - name: someURL
  steps:
    - name: build
      image: my-builder
      command: ["$(params.flags)"]
      args: ["build", "$(params.flags)", 'url=$(params.someURL)']
`);

describe('an array param written $(params.a) as a whole element of command or args', () => {
  it('passes validation and expands in place, as [*] does', () => {
    expect(issues(validateTask(FLAGS))).toEqual([]);
    const resolved = run(FLAGS, [
      { name: 'flags', value: ['--set', 'arg1=foo', '--randomflag'] },
      { name: 'someURL', value: 'http://google.com' },
    ]);
    expect(resolved.steps[0]!.command).toEqual(['--set', 'arg1=foo', '--randomflag']);
    expect(resolved.steps[0]!.args).toEqual([
      'build',
      '--set',
      'arg1=foo',
      '--randomflag',
      'url=http://google.com',
    ]);
  });

  it('is still an error inside a longer string, or in a script', () => {
    const t = task(`  params: [{ name: flags, type: array }]
  steps:
    - image: alpine
      args: ["--flags=$(params.flags)"]
      script: echo $(params.flags)
`);
    const message = '$(params.flags): param "flags" is an array: use $(params.flags[*])';
    const found = issues(validateTask(t));
    expect(found).toHaveLength(2);
    expect(found).toEqual(
      expect.arrayContaining([
        { path: 'spec.steps[0].script', rule: 'param-usage', message },
        { path: 'spec.steps[0].args[0]', rule: 'param-usage', message },
      ]),
    );
  });

  it('expands as an element of a pipeline task array param and of when values', () => {
    const pipeline = parse<Pipeline>(`apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  params: [{ name: envs, type: array, default: [dev, prod] }]
  tasks:
    - name: a
      when: [{ input: prod, operator: in, values: ["$(params.envs)"] }]
      params: [{ name: all, value: [first, "$(params.envs)"] }]
      taskSpec:
        params: [{ name: all, type: array }]
        steps: [{ image: alpine, command: [echo], args: ["$(params.all[*])"] }]
`);
    expect(issues(validatePipeline(pipeline, {}))).toEqual([]);
    const resolved = resolveTaskRun(pipeline.spec.tasks[0]!, pipeline.spec.tasks[0]!.taskSpec!, {
      resultsDir: '/r',
      params: { envs: ['dev', 'prod'] },
    });
    expect(resolved.steps[0]!.args).toEqual(['first', 'dev', 'prod']);
  });
});

describe('$(inputs.params.x), the older spelling', () => {
  it('is $(params.x): validated against the declared params and substituted', () => {
    const t = task(`  params: [{ name: url }, { name: flags, type: array }]
  steps:
    - image: alpine
      args: ["$(inputs.params.flags[*])"]
      script: git clone $(inputs.params.url)
`);
    expect(issues(validateTask(t))).toEqual([]);
    const resolved = run(t, [
      { name: 'url', value: 'https://x.test/r.git' },
      { name: 'flags', value: ['-q'] },
    ]);
    expect(resolved.steps[0]).toMatchObject({ script: 'git clone https://x.test/r.git', args: ['-q'] });
    expect(
      issues(validateTask(task('  steps: [{ image: alpine, script: "echo $(inputs.params.nope)" }]\n'))),
    ).toEqual([
      {
        path: 'spec.steps[0].script',
        rule: 'unknown-param-reference',
        message: '$(inputs.params.nope): the task declares no param "nope"',
      },
    ]);
  });

  it('other inputs variables stay refused', () => {
    const t = task('  steps: [{ image: alpine, script: "ls $(inputs.resources.src.path)" }]\n');
    expect(issues(validateTask(t))[0]).toMatchObject({ rule: 'unsupported-reference' });
  });
});

describe('object params and results', () => {
  it('a param or a result with properties and no type is an object', () => {
    const t = task(`  params:
    - name: gitrepo
      properties: { url: {}, commit: {} }
  results:
    - name: image
      properties: { url: {}, digest: {} }
  steps: [{ image: alpine, script: "echo $(params.gitrepo.url) $(params.gitrepo.nope)" }]
`);
    expect(t.spec.params![0]!.type).toBe('object');
    expect(issues(validateTask(t))).toEqual([
      {
        path: 'spec.steps[0].script',
        rule: 'param-usage',
        message: '$(params.gitrepo.nope): object param "gitrepo" has no key "nope"',
      },
    ]);
    expect(typedResults(t.spec.results, { image: '{"url":"r.test/a","digest":"sha256:1"}' })).toEqual({
      results: { image: { url: 'r.test/a', digest: 'sha256:1' } },
    });
  });

  it('a result file that is not JSON of its declared type fails the task, naming the result', () => {
    const declared = [
      { name: 'list', type: 'array' as const },
      { name: 'obj', type: 'object' as const, properties: { url: {}, digest: {} } },
    ];
    expect(typedResults(declared, { list: 'a,b' }).error).toBe(
      'result "list" is declared an array but its file does not hold a JSON array of strings: "a,b"',
    );
    expect(typedResults(declared, { list: '[1, 2]' }).error).toContain('a JSON array of strings');
    expect(typedResults(declared, { obj: '{"url":"u"}' }).error).toBe(
      'result "obj" is an object missing the keys its properties declare: digest',
    );
    expect(typedResults(declared, { list: '[]', obj: '{"url":"u","digest":"d"}' })).toEqual({
      results: { list: [], obj: { url: 'u', digest: 'd' } },
    });
  });

  it('references into results are checked against their declared type', () => {
    const pipeline = parse<Pipeline>(`apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  results:
    - { name: whole, value: "$(tasks.a.results.list[*])" }
    - { name: mixed, value: "list: $(tasks.a.results.list)" }
  tasks:
    - name: a
      taskSpec:
        results: [{ name: list, type: array }, { name: obj, properties: { url: {} } }, { name: s }]
        steps: [{ image: alpine, script: "true" }]
    - name: b
      params:
        - { name: p1, value: "$(tasks.a.results.list.key)" }
        - { name: p2, value: "$(tasks.a.results.obj[0])" }
        - { name: p3, value: "$(tasks.a.results.obj.nope)" }
        - { name: p4, value: "$(tasks.a.results.s[0])" }
        - { name: p5, value: "$(tasks.a.results.obj.url)" }
      taskSpec:
        steps: [{ image: alpine, script: "true" }]
`);
    expect(issues(validatePipeline(pipeline, {})).map((i) => [i.path, i.message])).toEqual([
      [
        'spec.tasks[1].params[0].value',
        '$(tasks.a.results.list.key): result "a.list" is an array: use [*] or [i]',
      ],
      ['spec.tasks[1].params[1].value', '$(tasks.a.results.obj[0]): result "a.obj" is an object: use .<key>'],
      ['spec.tasks[1].params[2].value', '$(tasks.a.results.obj.nope): result "a.obj" has no key "nope"'],
      ['spec.tasks[1].params[3].value', '$(tasks.a.results.s[0]): result "a.s" is a string'],
      [
        'spec.results[1].value',
        '$(tasks.a.results.list): result "a.list" is an array: only $(tasks.a.results.list[*]) standing alone takes it whole',
      ],
    ]);
  });
});

describe('finally results in pipeline results', () => {
  const pipeline = (results: string, param = '"x"') =>
    parse<Pipeline>(`apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  results: [${results}]
  tasks:
    - name: a
      params: [{ name: v, value: ${param} }]
      taskSpec:
        params: [{ name: v }]
        results: [{ name: out }]
        steps: [{ image: alpine, script: "true" }]
  finally:
    - name: f
      taskSpec:
        results: [{ name: out }]
        steps: [{ image: alpine, script: "true" }]
`);

  it('$(finally.<t>.results.<r>) names a finally task, and only pipeline results read it', () => {
    expect(issues(validatePipeline(pipeline('{ name: r, value: "$(finally.f.results.out)" }'), {}))).toEqual(
      [],
    );
    expect(issues(validatePipeline(pipeline('{ name: r, value: "$(finally.a.results.out)" }'), {}))).toEqual([
      {
        path: 'spec.results[0].value',
        rule: 'result-reference',
        message: '$(finally.a.results.out): task "a" is not a finally task: use $(tasks.a.…)',
      },
    ]);
    expect(issues(validatePipeline(pipeline('{ name: r, value: "$(tasks.f.results.out)" }'), {}))).toEqual([
      {
        path: 'spec.results[0].value',
        rule: 'result-reference',
        message:
          '$(tasks.f.results.out): task "f" is a finally task: read its results as $(finally.f.results.out)',
      },
    ]);
    expect(
      issues(validatePipeline(pipeline('{ name: r, value: "x" }', '"$(finally.f.results.out)"'), {})),
    ).toEqual([
      {
        path: 'spec.tasks[0].params[0].value',
        rule: 'result-reference',
        message: '$(finally.f.results.out): only pipeline results can read the results of finally tasks',
      },
    ]);
  });
});

describe('param defaults that use other params (Tekton resolves them in order of use)', () => {
  const spec = (b: string) => ({
    tasks: [],
    params: [
      { name: 'image', type: 'string' as const, default: '$(params.registry)/app:$(params.tag)' },
      { name: 'registry', type: 'string' as const, default: 'registry.test' },
      { name: 'tag', type: 'string' as const, default: b },
    ],
  });

  it('a default takes the values of the params it names; a given value is taken as it is', () => {
    expect(resolvePipelineParams(spec('v1'), {})).toEqual({
      ok: true,
      params: { image: 'registry.test/app:v1', registry: 'registry.test', tag: 'v1' },
    });
    expect(
      resolvePipelineParams(spec('v1'), { registry: 'r.example', image: '$(params.tag)' }),
    ).toMatchObject({
      ok: true,
      params: { image: '$(params.tag)', registry: 'r.example' },
    });
  });

  it('a cycle is an error naming it', () => {
    expect(resolvePipelineParams(spec('$(params.image)'), {})).toEqual({
      ok: false,
      errors: [
        {
          path: 'params.image',
          rule: 'param-default',
          message: 'param defaults refer to each other in a cycle: image → tag → image',
        },
      ],
    });
  });
});

describe('propagation (docs/pipelineruns.md)', () => {
  it('a run param the pipeline does not declare is kept, not refused', () => {
    const spec = { tasks: [], params: [{ name: 'a', type: 'string' as const, default: 'x' }] };
    expect(resolvePipelineParams(spec, { a: 'y', extra: 'z' })).toEqual({
      ok: true,
      params: { a: 'y', extra: 'z' },
    });
  });

  it("an embedded pipelineSpec uses the PipelineRun's params and workspaces undeclared", () => {
    const text = `apiVersion: tekton.dev/v1
kind: PipelineRun
metadata: { name: pr }
spec:
  params: [{ name: HELLO, value: hi }]
  workspaces: [{ name: shared-data, emptyDir: {} }]
  pipelineSpec:
    tasks:
      - name: fetch
        params: [{ name: greeting, value: "$(params.HELLO)" }]
        workspaces: [{ name: shared-data }]
        taskRef: { name: fetch-secure-data }
---
apiVersion: tekton.dev/v1
kind: Task
metadata: { name: fetch-secure-data }
spec:
  params: [{ name: greeting }]
  workspaces: [{ name: shared-data }]
  steps: [{ image: alpine, script: "echo $(params.greeting) > $(workspaces.shared-data.path)/x" }]
`;
    const checked = checkDefinition(text);
    expect(checked.ok ? [] : checked.errors).toEqual([]);
    const undeclared = checkDefinition(text.replace('params: [{ name: HELLO, value: hi }]', 'params: []'));
    expect(undeclared.ok ? [] : undeclared.errors.map((e) => e.message)).toEqual([
      '$(params.HELLO): the pipeline declares no param "HELLO"',
    ]);
  });

  it('a referenced Task must still declare what it uses', () => {
    const text = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  params: [{ name: HELLO, default: hi }]
  tasks:
    - { name: a, taskRef: { name: t }, params: [{ name: HELLO, value: x }] }
---
apiVersion: tekton.dev/v1
kind: Task
metadata: { name: t }
spec:
  steps: [{ image: alpine, script: "echo hi" }]
`;
    const checked = checkDefinition(text);
    expect(checked.ok ? [] : checked.errors.map((e) => e.message)).toEqual([
      'task "t" declares no param "HELLO"',
    ]);
  });
});

describe('workspace variables at the pipeline level (docs/workspaces.md)', () => {
  const pipeline = (params: string, when = '') =>
    parse<Pipeline>(`apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  workspaces: [{ name: source }, { name: cache, optional: true }]
  tasks:
    - name: build
      taskRef: { name: build }
      workspaces: [{ name: output, workspace: source }]
      params: [${params}]
      ${when}
`);
  const catalogue = {
    build: task(`  params: [{ name: dir }]
  workspaces: [{ name: output }]
  steps: [{ image: alpine, script: "cd $(params.dir)" }]
`),
  };

  it('$(workspaces.<w>.path) of the Task in params, $(workspaces.<w>.bound) of the pipeline in when', () => {
    const ok = pipeline(
      '{ name: dir, value: "$(workspaces.output.path)/src" }',
      'when: [{ input: "$(workspaces.cache.bound)", operator: in, values: ["false"] }]',
    );
    expect(issues(validatePipeline(ok, catalogue))).toEqual([]);
    const resolved = resolveTaskRun(ok.spec.tasks[0]!, catalogue.build, {
      resultsDir: '/r',
      pipelineWorkspaces: { source: '/ws/source' },
      leave: (r) => r.kind === 'workspace' && r.property !== 'bound',
    });
    expect(resolved.params.dir).toBe('/ws/source/src');
    expect(resolved.steps[0]!.script).toBe('cd /ws/source/src');
  });

  it('refuses a workspace the Task or the pipeline does not have, and a path in when', () => {
    const bad = pipeline(
      '{ name: dir, value: "$(workspaces.nope.path)" }',
      'when: [{ input: "$(workspaces.other.bound)", operator: in, values: ["true"] }, { input: "$(workspaces.output.path)", operator: in, values: ["x"] }]',
    );
    expect(issues(validatePipeline(bad, catalogue)).map((i) => [i.path, i.message])).toEqual([
      [
        'spec.tasks[0].params[0].value',
        '$(workspaces.nope.path): task "build" has no workspace "nope" for it to resolve',
      ],
      [
        'spec.tasks[0].when[0].input',
        '$(workspaces.other.bound): the pipeline declares no workspace "other"',
      ],
      [
        'spec.tasks[0].when[1].input',
        "$(workspaces.output.path): a pipeline can pass the Task's workspace path only in a pipeline task's params",
      ],
    ]);
  });
});

describe('context variables', () => {
  it('$(context.pipelineTask.retries) only in params; $(context.task.retry-count) per attempt', () => {
    const pipeline = parse<Pipeline>(`apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: p }
spec:
  tasks:
    - name: a
      retries: 2
      when: [{ input: "$(context.pipelineTask.retries)", operator: in, values: ["2"] }]
      params: [{ name: r, value: "$(context.pipelineTask.retries)" }]
      taskSpec:
        params: [{ name: r }]
        steps: [{ image: alpine, script: "echo $(context.task.retry-count) of $(params.r)" }]
`);
    expect(issues(validatePipeline(pipeline, {}))).toEqual([
      {
        path: 'spec.tasks[0].when[0].input',
        rule: 'reference-scope',
        message:
          "$(context.pipelineTask.retries): Tekton substitutes it only in a pipeline task's params and matrix params",
      },
    ]);
    const resolved = resolveTaskRun(pipeline.spec.tasks[0]!, pipeline.spec.tasks[0]!.taskSpec!, {
      resultsDir: '/r',
    });
    expect(resolved.steps[0]!.script).toBe('echo $(context.task.retry-count) of 2');
    expect(forAttempt(resolved, 1).steps[0]!.script).toBe('echo 0 of 2');
    expect(forAttempt(resolved, 3).steps[0]!.script).toBe('echo 2 of 2');
    const first = forAttempt(resolved, 1);
    expect(forAttempt(first, 2)).toBe(first);
  });

  it('context variables in a Task param default are substituted', () => {
    const t = task(`  params: [{ name: tag, default: "$(context.taskRun.name)-build" }]
  steps: [{ image: alpine, script: "echo $(params.tag)" }]
`);
    const resolved = resolveTaskRun({ name: 'x', taskRef: { name: 't' } }, t, {
      resultsDir: '/r',
      context: { taskRun: { name: 'run-1-x' } },
    });
    expect(resolved.steps[0]!.script).toBe('echo run-1-x-build');
  });
});

describe('onError from a param (docs/tasks.md "Specifying onError for a step")', () => {
  const t = task(`  params: [{ name: CONTINUE, default: continue }]
  steps: [{ name: s, image: alpine, onError: $(params.CONTINUE), script: "exit 1" }]
`);

  it('resolves to continue or stopAndFail', () => {
    expect(issues(validateTask(t))).toEqual([]);
    expect(run(t, []).steps[0]!.onError).toBe('continue');
    expect(run(t, [{ name: 'CONTINUE', value: 'stopAndFail' }]).steps[0]!.onError).toBe('stopAndFail');
    expect(() => run(t, [{ name: 'CONTINUE', value: 'maybe' }])).toThrow(
      'step "s": onError $(params.CONTINUE) is "maybe": it must be continue or stopAndFail',
    );
  });

  it('refuses anything else at submission', () => {
    const parsed = parseDefinition(`apiVersion: tekton.dev/v1
kind: Task
metadata: { name: t }
spec:
  steps: [{ image: alpine, onError: sometimes, script: "true" }]
`);
    expect(parsed.ok ? [] : parsed.errors.map((e) => [e.path, e.message])).toEqual([
      [
        'spec.steps[0].onError',
        'onError must be continue or stopAndFail, or a $(params.<name>) that resolves to one',
      ],
    ]);
  });
});

describe('parseDefinition', () => {
  it('reads aliases through yaml, which bounds their expansion', () => {
    const text = `apiVersion: tekton.dev/v1
kind: Task
metadata: { name: t }
spec:
  steps:
    - &step { name: a, image: alpine, script: "true" }
    - *step
`;
    const parsed = parseDefinition(text);
    expect(parsed).toEqual(parseWithPositions(text));
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.message)).toEqual([]);
    const laughs = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map(
        (k, i) =>
          `${k}: &${k} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    ].join('\n');
    expect(parseDefinition(laughs)).toMatchObject({
      ok: false,
      errors: [{ rule: 'yaml-syntax', message: expect.stringMatching(/alias/i) }],
    });
  });
});

describe('substitute', () => {
  it('leaves the references a later pass resolves', () => {
    expect(
      substitute('$(workspaces.w.path)/$(params.a)', {
        params: { a: 'x' },
        leave: (r) => r.kind === 'workspace',
      }),
    ).toBe('$(workspaces.w.path)/x');
  });
});
