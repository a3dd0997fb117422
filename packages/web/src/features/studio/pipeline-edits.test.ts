import { describe, expect, it } from 'vitest';
import { pipelineSpecOf } from '../pipelines/definition-parse';
import { buildRunGraph } from '../pipelines/run-graph';
import {
  addRunAfter,
  addTask,
  isTaskName,
  removeRunAfter,
  removeTask,
  renameTask,
  setTaskParam,
  setWhen,
  taskNameFrom,
  type EditResult,
} from './pipeline-edits';
import { catalogueItemOf, isTaskTemplate, newTaskFrom, readPipeline, resultsOf } from './pipeline-read';
import { mergeEdit } from './yaml-merge';

/** A hand-written pipeline: comments, flow and block styles, a finally task reading a result. */
const PIPELINE = `# Ships the service
apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: ship }   # kept as written
spec:
  params:
    - name: repo
      type: string
  workspaces:
    - name: source
  tasks:
    # first, the code
    - name: clone
      taskRef:
        name: git-clone
      params:
        - name: url
          value: $(params.repo)
    - name: build
      runAfter: [clone]
      params:
        - name: commit
          value: "$(tasks.clone.results.commit)"
      taskSpec: { results: [{ name: image }], steps: [{ name: b, image: alpine, script: echo }] }
    - name: test
      runAfter:
        - build
      taskSpec:
        steps:
          - name: t
            image: alpine
            script: |
              # a comment inside a script stays too
              echo ok
  finally:
    - name: report
      params:
        - name: image
          value: $(tasks.build.results.image)
      taskSpec: { steps: [{ name: r, image: alpine, script: echo }] }
`;

function ok(result: EditResult): string {
  if (!result.ok) throw new Error(`edit refused: ${result.error}`);
  return result.text;
}

/** The graph the run page would draw from a text, as "source->target:kind" strings. */
function edges(text: string): string[] {
  return buildRunGraph(pipelineSpecOf(text), [])
    .edges.map((e) => `${e.id}:${e.kind}`)
    .sort();
}
const nodes = (text: string) => buildRunGraph(pipelineSpecOf(text), []).nodes.map((n) => n.id);

/** The lines of `after` that are not in `before` (and the other way), to see what an edit touched. */
function changed(before: string, after: string) {
  const a = before.split('\n');
  const b = after.split('\n');
  return { added: b.filter((l) => !a.includes(l)), removed: a.filter((l) => !b.includes(l)) };
}

describe('addTask', () => {
  it('adds a catalogue task with its params, keeping every comment and line as written', () => {
    const result = addTask(PIPELINE, {
      name: 'buildah',
      taskRef: 'buildah',
      params: { IMAGE: 'registry/app', CONTEXT: '.' },
      runAfter: ['test'],
    });
    const text = ok(result);
    expect(result.ok && result.name).toBe('buildah');
    expect(text.startsWith(PIPELINE.slice(0, PIPELINE.indexOf('  finally:')))).toBe(true);
    expect(text).toContain('metadata: { name: ship }   # kept as written');
    expect(text).toContain('# a comment inside a script stays too');
    expect(changed(PIPELINE, text)).toEqual({
      added: [
        '    - name: buildah',
        '      runAfter: [test]',
        '        name: buildah',
        '        - name: IMAGE',
        '          value: registry/app',
        '        - name: CONTEXT',
        '          value: .',
      ],
      removed: [],
    });
    expect(nodes(text)).toEqual(['clone', 'build', 'test', 'buildah', 'report']);
    expect(edges(text)).toContain('test->buildah:runAfter');
  });

  it('names the task uniquely and validly', () => {
    const first = addTask(PIPELINE, { name: 'Build', taskSpec: { steps: [] } });
    expect(first.ok && first.name).toBe('build-2');
    const second = addTask(ok(first), { name: 'build', taskSpec: { steps: [] } });
    expect(second.ok && second.name).toBe('build-3');
    expect(taskNameFrom('  Deploy to PROD!! ')).toBe('deploy-to-prod');
    expect(taskNameFrom('***')).toBe('task');
    expect(isTaskName('deploy-to-prod')).toBe(true);
    expect(isTaskName('Deploy')).toBe(false);
    expect(isTaskName('-x')).toBe(false);
  });

  it('makes the spec and its task list in a definition that has none', () => {
    const text = ok(
      addTask('apiVersion: tekton.dev/v1\nkind: Pipeline\n', { name: 'one', taskRef: 'run-script' }),
    );
    expect(text).toBe(
      'apiVersion: tekton.dev/v1\nkind: Pipeline\nspec:\n  tasks:\n    - name: one\n      taskRef:\n        name: run-script\n',
    );
    const flow = ok(addTask('kind: Pipeline\nspec:\n  tasks: []\n', { name: 'one', taskRef: 'x' }));
    expect(flow).toBe('kind: Pipeline\nspec:\n  tasks:\n    - name: one\n      taskRef:\n        name: x\n');
  });

  it('adds under finally, and follows a text that does not indent its sequences', () => {
    const text = ok(
      addTask('kind: Pipeline\nspec:\n  tasks:\n  - name: a\n    taskRef: {name: x}\n', {
        name: 'tidy',
        taskRef: 'run-script',
        finally: true,
      }),
    );
    expect(text).toBe(
      'kind: Pipeline\nspec:\n  tasks:\n  - name: a\n    taskRef: {name: x}\n  finally:\n  - name: tidy\n    taskRef:\n      name: run-script\n',
    );
    expect(buildRunGraph(pipelineSpecOf(text), []).nodes).toEqual([
      { id: 'a', isFinally: false, status: 'pending' },
      { id: 'tidy', isFinally: true, status: 'pending' },
    ]);
  });

  it('edits the Pipeline of a YAML stream and leaves the other documents alone', () => {
    const stream = `apiVersion: tekton.dev/v1\nkind: Task\nmetadata:\n  name: local\nspec:\n  results:\n    - name: out\n  steps: []\n---\n${PIPELINE}`;
    const text = ok(addTask(stream, { name: 'more', taskRef: 'local' }));
    expect(text.startsWith(stream.slice(0, stream.indexOf('  finally:')))).toBe(true);
    const read = readPipeline(text);
    expect(read.ok && read.model.localTasks).toEqual({ local: ['out'] });
  });

  it('writes JSON back as JSON', () => {
    const json = `${JSON.stringify({ kind: 'Pipeline', spec: { tasks: [{ name: 'a', taskRef: { name: 'x' } }] } }, null, 2)}\n`;
    const text = ok(addTask(json, { name: 'b', taskRef: 'y', runAfter: ['a'] }));
    expect(JSON.parse(text)).toEqual({
      kind: 'Pipeline',
      spec: {
        tasks: [
          { name: 'a', taskRef: { name: 'x' } },
          { name: 'b', runAfter: ['a'], taskRef: { name: 'y' } },
        ],
      },
    });
  });

  it('says why a text cannot take it', () => {
    expect(addTask('kind: Pipeline\nspec: [oops', { name: 'a' })).toMatchObject({
      ok: false,
      error: 'unreadable',
    });
    expect(addTask('', { name: 'a' })).toMatchObject({ ok: false, error: 'noPipeline' });
  });
});

describe('removeTask', () => {
  it('removes a task and takes it out of the others’ runAfter', () => {
    const text = ok(removeTask(PIPELINE, 'test'));
    expect(nodes(text)).toEqual(['clone', 'build', 'report']);
    expect(changed(PIPELINE, text).added).toEqual([]);
    const cloneGone = ok(removeTask(ok(setTaskParam(PIPELINE, 'build', 'commit', 'abc')), 'clone'));
    expect(cloneGone).not.toContain('runAfter: [clone]');
    expect(cloneGone).not.toContain('runAfter: []');
    expect(edges(cloneGone)).toEqual(['build->report:result', 'build->test:runAfter']);
    expect(cloneGone).toContain('# first, the code');
  });

  it('refuses while another task reads its results, unless forced', () => {
    expect(removeTask(PIPELINE, 'build')).toEqual({
      ok: false,
      error: 'referenced',
      tasks: ['report'],
      pipelineResults: false,
    });
    const forced = ok(removeTask(PIPELINE, 'build', { force: true }));
    expect(nodes(forced)).toEqual(['clone', 'test', 'report']);
    expect(forced).not.toMatch(/^\s+- build$/m);
    expect(removeTask(PIPELINE, 'nope')).toMatchObject({ ok: false, error: 'noTask' });
  });

  it('counts the pipeline’s own results as readers', () => {
    const text = `kind: Pipeline\nspec:\n  results:\n    - name: sha\n      value: $(tasks.a.results.sha)\n  tasks:\n    - name: a\n      taskRef: {name: x}\n`;
    expect(removeTask(text, 'a')).toMatchObject({
      ok: false,
      error: 'referenced',
      tasks: [],
      pipelineResults: true,
    });
  });
});

describe('renameTask', () => {
  it('renames the task and every runAfter and result reference to it', () => {
    const text = ok(renameTask(PIPELINE, 'build', 'compile'));
    expect(text).toContain('    - name: compile\n');
    expect(text).toContain('        - compile\n');
    expect(text).toContain('value: $(tasks.compile.results.image)');
    expect(text).not.toContain('build');
    expect(edges(text)).toEqual([
      'clone->compile:runAfter',
      'compile->report:result',
      'compile->test:runAfter',
    ]);
    // the quoted reference stays quoted, the comments stay
    expect(ok(renameTask(PIPELINE, 'clone', 'fetch'))).toContain('value: "$(tasks.fetch.results.commit)"');
    expect(ok(renameTask(PIPELINE, 'clone', 'fetch'))).toContain('# first, the code');
  });

  it('refuses a taken or invalid name', () => {
    expect(renameTask(PIPELINE, 'build', 'test')).toMatchObject({ ok: false, error: 'duplicateName' });
    expect(renameTask(PIPELINE, 'build', 'report')).toMatchObject({ ok: false, error: 'duplicateName' });
    expect(renameTask(PIPELINE, 'build', 'Not Valid')).toMatchObject({ ok: false, error: 'invalidName' });
    expect(renameTask(PIPELINE, 'ghost', 'x')).toMatchObject({ ok: false, error: 'noTask' });
    expect(ok(renameTask(PIPELINE, 'build', 'build'))).toBe(PIPELINE);
  });
});

describe('runAfter', () => {
  it('adds to a flow list, a block list, or makes one after the name', () => {
    const lint = ok(addTask(PIPELINE, { name: 'lint', taskRef: 'x', runAfter: ['clone'] }));
    expect(ok(addRunAfter(lint, 'build', 'lint'))).toContain(
      '    - name: lint\n      runAfter: [clone, build]\n',
    );
    const intoBlock = ok(addRunAfter(PIPELINE, 'clone', 'test'));
    expect(intoBlock).toContain('      runAfter:\n        - build\n        - clone\n');
    const made = ok(addRunAfter(ok(addTask(PIPELINE, { name: 'lint', taskRef: 'x' })), 'clone', 'lint'));
    expect(made).toContain('    - name: lint\n      runAfter: [clone]\n      taskRef:\n');
    expect(edges(made)).toContain('clone->lint:runAfter');
    // already there: nothing changes
    expect(ok(addRunAfter(PIPELINE, 'clone', 'build'))).toBe(PIPELINE);
  });

  it('refuses a cycle, through runAfter and through result references', () => {
    expect(addRunAfter(PIPELINE, 'test', 'clone')).toEqual({ ok: false, error: 'cycle' });
    expect(addRunAfter(PIPELINE, 'build', 'build')).toEqual({ ok: false, error: 'cycle' });
    // clone → build by a result reference only
    const byResult = ok(removeRunAfter(PIPELINE, 'clone', 'build'));
    expect(edges(byResult)).toContain('clone->build:result');
    expect(addRunAfter(byResult, 'build', 'clone')).toEqual({ ok: false, error: 'cycle' });
  });

  it('refuses runAfter to or from a finally task', () => {
    expect(addRunAfter(PIPELINE, 'test', 'report')).toEqual({ ok: false, error: 'finally' });
    expect(addRunAfter(PIPELINE, 'report', 'test')).toEqual({ ok: false, error: 'finally' });
  });

  it('removes from runAfter, dropping an emptied list', () => {
    const text = ok(removeRunAfter(PIPELINE, 'build', 'test'));
    expect(text).toContain('    - name: test\n      taskSpec:\n');
    expect(edges(text)).not.toContain('build->test:runAfter');
    expect(ok(removeRunAfter(PIPELINE, 'nothing', 'test'))).toBe(PIPELINE);
  });
});

describe('setTaskParam', () => {
  it('changes a value in place, keeping its quotes, and adds and removes params', () => {
    const changedValue = ok(setTaskParam(PIPELINE, 'build', 'commit', 'main'));
    expect(changed(PIPELINE, changedValue)).toEqual({
      added: ['          value: "main"'],
      removed: ['          value: "$(tasks.clone.results.commit)"'],
    });
    const added = ok(setTaskParam(PIPELINE, 'test', 'level', 'full'));
    expect(added).toContain(
      '      runAfter:\n        - build\n      params:\n        - name: level\n          value: full\n',
    );
    const removed = ok(setTaskParam(added, 'test', 'level', null));
    expect(removed).toBe(PIPELINE);
    expect(ok(setTaskParam(PIPELINE, 'test', 'targets', ['eu', 'us']))).toContain(
      '        - name: targets\n          value:\n            - eu\n            - us\n',
    );
  });

  it('writes a value plain once it replaces an empty (quoted) one', () => {
    const empty = ok(setTaskParam(PIPELINE, 'test', 'url', ''));
    expect(empty).toContain('        - name: url\n          value: ""\n');
    expect(ok(setTaskParam(empty, 'test', 'url', 'https://git.example/app'))).toContain(
      '        - name: url\n          value: https://git.example/app\n',
    );
  });

  it('draws a result reference as a dashed (result) edge, and refuses one that makes a cycle', () => {
    const text = ok(setTaskParam(PIPELINE, 'test', 'image', '$(tasks.build.results.image)'));
    expect(edges(text)).toContain('build->test:runAfter');
    const fromClone = ok(setTaskParam(PIPELINE, 'test', 'sha', '$(tasks.clone.results.commit)'));
    expect(edges(fromClone)).toContain('clone->test:result');
    expect(setTaskParam(PIPELINE, 'clone', 'x', '$(tasks.test.results.out)')).toEqual({
      ok: false,
      error: 'cycle',
    });
    expect(setTaskParam(PIPELINE, 'clone', 'x', '$(tasks.clone.results.out)')).toEqual({
      ok: false,
      error: 'cycle',
    });
  });
});

describe('setWhen', () => {
  it('sets, replaces and removes when expressions, keeping cel ones', () => {
    const text = ok(
      setWhen(PIPELINE, 'test', [{ input: '$(params.repo)', operator: 'notin', values: ['', 'none'] }]),
    );
    expect(text).toContain(
      '      when:\n        - input: $(params.repo)\n          operator: notin\n          values: ["", none]\n',
    );
    const read = readPipeline(text);
    expect(read.ok && read.model.tasks.find((t) => t.name === 'test')!.when).toEqual([
      { input: '$(params.repo)', operator: 'notin', values: ['', 'none'] },
    ]);
    expect(ok(setWhen(text, 'test', []))).toBe(PIPELINE);
    const cel =
      'kind: Pipeline\nspec:\n  tasks:\n    - name: a\n      when:\n        - cel: "true"\n      taskRef: {name: x}\n';
    const withBoth = ok(setWhen(cel, 'a', [{ input: 'x', operator: 'in', values: ['x'] }]));
    expect(withBoth).toContain(
      '      when:\n        - cel: "true"\n        - input: x\n          operator: in\n          values: [x]\n',
    );
    expect(ok(setWhen(withBoth, 'a', []))).toBe(cel);
  });

  it('refuses a result reference that makes a cycle', () => {
    expect(
      setWhen(PIPELINE, 'clone', [{ input: '$(tasks.build.results.image)', operator: 'in', values: ['x'] }]),
    ).toEqual({
      ok: false,
      error: 'cycle',
    });
  });
});

describe('reading for the studio', () => {
  it('reads tasks, their runAfter, params, when and results, and the graph', () => {
    const read = readPipeline(PIPELINE);
    if (!read.ok) throw new Error('unreadable');
    const { model } = read;
    expect(model.tasks.map((t) => [t.name, t.isFinally, t.taskRef])).toEqual([
      ['clone', false, 'git-clone'],
      ['build', false, null],
      ['test', false, null],
      ['report', true, null],
    ]);
    expect(model.tasks[1]).toMatchObject({
      runAfter: ['clone'],
      params: [{ name: 'commit', value: '$(tasks.clone.results.commit)' }],
      results: ['image'],
    });
    expect(model.workspaces).toEqual(['source']);
    expect(model.graph.edges.map((e) => `${e.id}:${e.kind}`).sort()).toEqual(edges(PIPELINE));
    expect(edges(PIPELINE)).toEqual([
      'build->report:result',
      'build->test:runAfter',
      'clone->build:runAfter',
    ]);
    expect(readPipeline('kind: Pipeline\nspec:\n  tasks: [oops\n')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/at line 4, column 1$/),
    });
  });

  it('offers a catalogue task with its params at their defaults and its workspaces bound', () => {
    const item = catalogueItemOf({
      id: 't1',
      name: 'git-clone',
      description: 'Clones',
      version: 1,
      builtIn: true,
      format: 'yaml',
      createdAt: '',
      updatedAt: '',
      definition:
        'kind: Task\nspec:\n  params:\n    - name: url\n    - name: depth\n      default: "1"\n  workspaces:\n    - name: output\n  results:\n    - name: commit\n',
    });
    expect(item).toMatchObject({
      params: [{ name: 'url' }, { name: 'depth', default: '1' }],
      results: ['commit'],
    });
    expect(newTaskFrom(item, ['source'])).toEqual({
      name: 'git-clone',
      taskRef: 'git-clone',
      params: { url: '', depth: '1' },
      workspaces: [{ name: 'output', workspace: 'source' }],
    });
    const read = readPipeline(PIPELINE);
    if (!read.ok) throw new Error('unreadable');
    const [clone, build] = read.model.tasks;
    expect(resultsOf(clone!, read.model, [item])).toEqual(['commit']);
    expect(resultsOf(build!, read.model, [item])).toEqual(['image']);
  });

  it('leaves StepAction templates out of the catalogue: steps reference them, pipelines cannot', () => {
    expect(isTaskTemplate({ definition: 'apiVersion: tekton.dev/v1\nkind: Task\nspec: {}\n' })).toBe(true);
    expect(
      isTaskTemplate({ definition: 'apiVersion: tekton.dev/v1beta1\nkind: StepAction\nspec: {}\n' }),
    ).toBe(false);
    expect(
      isTaskTemplate({ definition: '{\n  "apiVersion": "tekton.dev/v1beta1",\n  "kind": "StepAction"\n}' }),
    ).toBe(false);
  });
});

describe('mergeEdit', () => {
  it('replays an edit onto the text as written and leaves unrelated lines alone', () => {
    const original = 'a: [x]\nb: 1   # note\nc: 2\n';
    const base = 'a: [ x ]\nb: 1 # note\nc: 2\n';
    const edited = 'a: [ x ]\nb: 1 # note\nc: 3\n';
    expect(mergeEdit(original, base, edited)).toBe('a: [x]\nb: 1   # note\nc: 3\n');
    // where the edit touches a re-written line, the edited line wins
    expect(mergeEdit(original, base, 'a: [ x, y ]\nb: 1 # note\nc: 2\n')).toBe(
      'a: [ x, y ]\nb: 1   # note\nc: 2\n',
    );
  });
});
