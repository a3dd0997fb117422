import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkDefinition } from './check-definition.js';
import { parseDefinition, parseWithPositions } from './parse-document.js';
import { lastRun, simulate, tektonExample, type Attempt } from './simulate.test-helper.js';

/*
 * tektoncd/pipeline's own examples (examples/v1/pipelineruns, copied into tekton-examples/ at
 * commit 3ee1745) pass validation, and run through the definition layer as they do on a cluster:
 * each step's script is replaced by what it writes to its result files.
 */

const EXAMPLES = readdirSync(new URL('./tekton-examples/', import.meta.url))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.replace(/\.yaml$/, ''));

const script = (run: { steps: { script?: string }[] }) => run.steps.map((s) => s.script ?? '').join('\n');

describe("Tekton's examples", () => {
  it.each(EXAMPLES)('%s passes validation', (name) => {
    const checked = checkDefinition(tektonExample(name));
    expect(checked.ok ? [] : checked.errors).toEqual([]);
  });

  it.each(EXAMPLES)('%s reads the same through js-yaml as through yaml Documents', (name) => {
    const text = tektonExample(name);
    expect(parseDefinition(text)).toEqual(parseWithPositions(text));
  });

  it('pipeline-object-param-and-result: a param with properties and no type is an object, object results are objects', () => {
    const sim = simulate(tektonExample('pipeline-object-param-and-result'), {
      execute: (run): Attempt =>
        run.name === 'task1'
          ? { results: { 'object-result': JSON.stringify({ foo: 'abc.com', bar: 'sha123' }) } }
          : {},
    });
    expect(sim.params.gitrepo).toEqual({ url: 'abc.com', commit: 'sha123' });
    expect(lastRun(sim, 'task1').params.arg).toEqual({ url: 'abc.com', commit: 'sha123' });
    expect(script(lastRun(sim, 'task1'))).toContain('{\\"foo\\":\\"abc.com\\",\\"bar\\":\\"sha123\\"}');
    expect(lastRun(sim, 'task2').params.arg).toEqual({ foo: 'abc.com', bar: 'sha123' });
    expect(lastRun(sim, 'task2').steps[0]!.args).toEqual(['abc.com', 'sha123']);
  });

  it('pipelinerun-array-results-substitution: array results by [*] and [i]', () => {
    const images = ['abc.dev/sampler/busysample@sha256:19f0', 'ubuntu', 'xyz.dev/awesomeness/awesomeness'];
    const sim = simulate(tektonExample('pipelinerun-array-results-substitution'), {
      execute: (run): Attempt =>
        run.name === 'task1'
          ? {
              results: {
                'array-results-1': JSON.stringify(images),
                'array-results-2': '["", "xyz.dev/awesomeness/awesomeness"]',
              },
            }
          : {},
    });
    const task2 = lastRun(sim, 'task2');
    expect(task2.params).toMatchObject({ images, 'image-1': images[2], 'image-2': images[2] });
    expect(task2.steps[0]!.args).toEqual(images);
    expect(sim.failed).toEqual({});
  });

  it('pipeline-object-results: a whole object result and one key into params', () => {
    const value = { url: 'abc.dev/sampler', digest: '19f02276' };
    const sim = simulate(tektonExample('pipeline-object-results'), {
      execute: (run): Attempt =>
        run.name === 'task1' ? { results: { 'object-results': JSON.stringify(value) } } : {},
    });
    expect(lastRun(sim, 'task2').params).toMatchObject({ 'whole-object': value, 'object-url': value.url });
    expect(lastRun(sim, 'task2').steps[0]!.args).toEqual(['abc.dev/sampler']);
  });

  it('pipeline-emitting-results: pipeline results of array and object type', () => {
    const sim = simulate(tektonExample('pipeline-emitting-results'), {
      execute: (run): Attempt =>
        run.name === 'task1'
          ? { results: { 'array-results': '["1","2","3"]' } }
          : { results: { 'object-results': '{"foo":"bar","hello":"world"}' } },
    });
    expect(sim.results).toEqual({
      'array-results': ['1', '2', '3'],
      'array-results-from-array-indexing-and-object-elements': ['1', 'bar'],
      'array-indexing-results': '2',
      'object-results': { foo: 'bar', hello: 'world' },
      'object-results-from-array-indexing-and-object-elements': { key1: '2', key2: 'world' },
      'object-element': 'bar',
    });
  });

  it('pipeline-with-when-expressions-using-array-results: when reads array results by index and [*]', () => {
    const sim = simulate(tektonExample('pipeline-with-when-expressions-using-array-results'), {
      execute: (run): Attempt =>
        run.name === 'task1'
          ? { results: { 'array-results-1': '["abc.dev/notsofamousimage/image", "ubuntu", "xyz.dev/a"]' } }
          : {},
    });
    expect(Object.keys(sim.runs).sort()).toEqual(['task1', 'task2', 'task3', 'task4', 'validate-tasks']);
    expect(sim.skipped.task5).toContain('when expression false');
  });

  it('pipelinerun-with-matrix-and-results: matrix values from array results', () => {
    const sim = simulate(tektonExample('pipelinerun-with-matrix-and-results'), {
      execute: (run): Attempt => {
        if (run.name === 'get-platforms') return { results: { platforms: '["linux", "mac", "windows"]' } };
        if (run.name === 'get-browsers-and-url')
          return { results: { browsers: '["chrome", "safari", "firefox"]', url: 'myfavoritesite.com' } };
        return {};
      },
    });
    const runs = sim.runs['platforms-and-browsers-dag']!;
    expect(runs).toHaveLength(6);
    expect(runs.map((r) => `${r.params.platform}/${r.params.browser}`)).toEqual([
      'linux/chrome',
      'mac/chrome',
      'windows/chrome',
      'linux/firefox',
      'mac/firefox',
      'windows/firefox',
    ]);
    expect(runs[0]!.params.url).toBe('myfavoritesite.com');
  });

  it('pipelinerun-with-final-results: $(finally.<t>.results.<r>) in pipeline results', () => {
    const sim = simulate(tektonExample('pipelinerun-with-final-results'), {
      execute: (run): Attempt => ({
        results: { product: String(Number(run.params.a) * Number(run.params.b)) },
      }),
    });
    expect(lastRun(sim, 'exponent').params).toMatchObject({ a: '22', b: '22' });
    expect(sim.results).toEqual({ 'task-result': '2', 'finally-result': '484' });
  });

  it('pipelinerun-with-final-results: a result whose task did not run is left out', () => {
    const sim = simulate(tektonExample('pipelinerun-with-final-results'), {
      execute: (run): Attempt =>
        run.name === 'multiply-inputs' ? { status: 'failed' } : { results: { product: '1' } },
    });
    expect(sim.results).toEqual({});
    expect(sim.skipped.exponent).toContain('results of task "multiply-inputs" are missing');
  });

  it('propagating_params_implicit_parameters: an undeclared PipelineRun param reaches inline taskSpecs', () => {
    const sim = simulate(tektonExample('propagating_params_implicit_parameters'));
    expect(script(lastRun(sim, 'echo-hello'))).toContain('echo "Pipeline Hello World!"');
    expect(script(lastRun(sim, 'echo-hello-finally'))).toContain('And Finally ... Pipeline Hello World!');
  });

  it('propagating_params_in_pipeline: the run value beats the pipeline default in inline taskSpecs', () => {
    const sim = simulate(tektonExample('propagating_params_in_pipeline'));
    expect(script(lastRun(sim, 'echo-hello'))).toContain('Hello from pipeline run');
  });

  it('propagating_params_with_scope_precedence: the pipeline task value beats the run value', () => {
    const sim = simulate(tektonExample('propagating_params_with_scope_precedence'));
    expect(script(lastRun(sim, 'echo-hello'))).toContain('Task Hello World!');
  });

  it('propagating_params_with_scope_precedence_default_only: the run value beats a taskSpec default', () => {
    const sim = simulate(tektonExample('propagating_params_with_scope_precedence_default_only'));
    expect(lastRun(sim, 'echo-hello').params.HELLO).toBe('Pipeline Hello World!');
    expect(script(lastRun(sim, 'echo-hello'))).toContain('Pipeline Hello World!');
  });

  it('propagated-pipeline-object-param: object keys of the task value over the run value', () => {
    const sim = simulate(tektonExample('propagated-pipeline-object-param'));
    expect(lastRun(sim, 'task1').steps[0]!.args).toEqual([
      'echo',
      '--url=xyz.com',
      '--commit=sha123',
      '--branch=main',
    ]);
  });

  it('propagating-workspaces: inline taskSpecs use the run workspaces undeclared', () => {
    const sim = simulate(tektonExample('propagating-workspaces'));
    expect(script(lastRun(sim, 'fetch-secure-data'))).toContain(
      'cp /ws/recipe-store/recipe.txt /ws/shared-data',
    );
    expect(script(lastRun(sim, 'print-the-recipe'))).toBe('cat /ws/shared-data/recipe.txt');
  });

  it('propagating-workspaces-in-pipelines: an inline taskSpec uses a pipeline workspace undeclared', () => {
    const sim = simulate(tektonExample('propagating-workspaces-in-pipelines'));
    expect(lastRun(sim, 't1').steps[0]!.args).toEqual(['/ws/shared-data']);
  });

  it('using-optional-workspaces-in-when-expressions: $(workspaces.w.bound) in when', () => {
    const bound = simulate(tektonExample('using-optional-workspaces-in-when-expressions'));
    expect(Object.keys(bound.runs)).toEqual(['print-motd']);
    expect(script(lastRun(bound, 'print-motd'))).toContain('for f in "/ws/message-of-the-day"/* ; do');
    const unbound = simulate(
      tektonExample('using-optional-workspaces-in-when-expressions').replace(
        ['  workspaces:', '  - name: message-of-the-day', '    configMap:', '      name: test-motd', ''].join(
          '\n',
        ),
        '',
      ),
    );
    expect(Object.keys(unbound.runs)).toEqual(['print-default-motd']);
  });

  it('optional-workspaces: $(workspaces.w.bound) in params, and an unbound optional workspace', () => {
    const sim = simulate(tektonExample('optional-workspaces'));
    expect(lastRun(sim, 'print-bound-state').steps[0]!.args).toEqual([
      'Was a prelaunch workspace provided? ',
      'false',
      '\n',
      'Was a launch workspace provided? ',
      'true',
      '\n',
    ]);
    expect(script(lastRun(sim, 'run-js'))).toContain('node "/init.js"');
    expect(lastRun(sim, 'run-js').workspaces).toEqual({ launch: '/ws/launch' });
  });

  it('using_context_variables: context in params, a param default, retries and the retry count', () => {
    const sim = simulate(tektonExample('using_context_variables'), { runName: 'test-pipelinerun-x1' });
    const run = lastRun(sim, 'task1');
    expect(run.params).toMatchObject({
      'pipeline-uid': 'uid-1',
      'pipelineRun-name': 'test-pipelinerun-x1',
      'pipelineRun-name-from-defaults': 'pipelinerun: test-pipelinerun-x1',
      'pipelineRun-namespace': 'default',
      'pipelineTask-retries': '7',
    });
    expect(script(run)).toContain(
      'PipelineRun name from pipeline defaults: pipelinerun: test-pipelinerun-x1',
    );
    expect(script(run)).toContain('PipelineTask current retry count: 0');
    expect(script(run)).toContain('TaskRun name: test-pipelinerun-x1-task1');
  });

  it('using-retries-and-retry-count-variables: each attempt sees its retry count', () => {
    const sim = simulate(tektonExample('using-retries-and-retry-count-variables'), {
      execute: (run): Attempt =>
        run.name === 'retry-me' && /"0" == "1"/.test(script(run)) ? { status: 'failed' } : {},
    });
    const attempts = sim.runs['retry-me']!.map(script);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toContain('if [ "0" == "1" ]');
    expect(attempts[1]).toContain('if [ "1" == "1" ]');
    expect(sim.states['hello-world']).toEqual({ state: 'succeeded' });
  });

  it('pipelinerun-param-array-indexing: [i] and [*] of an array param, in params and in steps', () => {
    const sim = simulate(tektonExample('pipelinerun-param-array-indexing'));
    const run = lastRun(sim, 'deploy');
    expect(run.params).toEqual({
      environment1: 'staging',
      environment2: 'qa',
      environments: ['staging', 'qa', 'prod'],
    });
    expect(run.steps[0]!.args).toEqual(['staging']);
    expect(run.steps[2]!.args).toEqual(['staging', 'qa', 'prod']);
    expect(run.steps[2]!.script).toContain('if [[ prod != "prod" ]]; then');
  });

  it('pipelinerun-with-matrix-array-references: matrix values from whole array params, in tasks and finally', () => {
    const sim = simulate(tektonExample('pipelinerun-with-matrix-array-references'));
    for (const task of ['platforms-and-browsers', 'platforms-and-browsers-in-finally']) {
      const runs = sim.runs[task]!;
      expect(runs).toHaveLength(9);
      expect(runs.map((r) => r.steps[0]!.script)).toContain('echo "windows and firefox"\n');
    }
  });

  it("pipelinerun-with-matrix: a matrixed task's displayName and include names may use its params and matrix params", () => {
    const sim = simulate(tektonExample('pipelinerun-with-matrix'));
    expect(sim.failed).toEqual({});
    expect(sim.runs['platforms-and-browsers']!.map((r) => r.steps[0]!.script)).toEqual([
      'echo "linux and chrome"\n',
      'echo "linux and firefox"\n',
    ]);
    expect(sim.runs['matrix-and-params']!.map((r) => r.steps[0]!.script)).toEqual([
      'echo "linux and chrome"\n',
    ]);
  });

  it('pipelinerun-results-with-params: a param and a result in one string', () => {
    const sim = simulate(tektonExample('pipelinerun-results-with-params'), {
      execute: (run): Attempt => (run.name === 'generate-suffix' ? { results: { suffix: 'suffix' } } : {}),
    });
    expect(script(lastRun(sim, 'do-something'))).toContain('echo "prefix:suffix" | grep "prefix:suffix"');
  });

  it('propagating_results_implicit_resultref: an inline taskSpec reads a result undeclared, after its task', () => {
    const sim = simulate(tektonExample('propagating_results_implicit_resultref'), {
      execute: (run): Attempt => (run.name === 'add-uid' ? { results: { uid: '1001' } } : {}),
    });
    expect(Object.keys(sim.runs)).toEqual(['add-uid', 'show-uid']);
    expect(lastRun(sim, 'show-uid').steps[0]!.args).toEqual(['echo 1001']);
  });

  it('pipelinerun-with-matrix-context-variables: matrix.length and matrix.<result>.length', () => {
    const sim = simulate(tektonExample('pipelinerun-with-matrix-context-variables'), {
      execute: (run): Attempt =>
        run.name.startsWith('matrix-emitting-results')
          ? {
              results: {
                'IMAGE-DIGEST': `sha-${String(run.params.IMAGE)}`,
                ...(run.params.DIGEST === '' ? { 'IMAGE-URL': 'url' } : {}),
              },
            }
          : {},
    });
    expect(sim.runs['matrix-emitting-results']!.map((r) => r.params.IMAGE)).toEqual([
      'image-1',
      'image-2',
      'image-3',
    ]);
    expect(lastRun(sim, 'matrixed-echo-length').params.matrixlength).toBe('3');
    expect(lastRun(sim, 'matrixed-echo-results-length').params).toEqual({
      'matrixresultslength-1': '3',
      'matrixresultslength-2': '1',
    });
  });

  it('pipelinerun-with-matrix-emitting-results: results of a fanned-out task as arrays', () => {
    const sim = simulate(tektonExample('pipelinerun-with-matrix-emitting-results'), {
      execute: (run): Attempt =>
        run.name.startsWith('matrix-emitting-results')
          ? {
              results: {
                'report-url': `https://api.example/get-report/${String(run.params.platform)}-${String(run.params.browser)}`,
              },
            }
          : {},
    });
    const urls = lastRun(sim, 'task-consuming-results').params.url as string[];
    expect(urls).toHaveLength(9);
    expect(urls[0]).toBe('https://api.example/get-report/linux-chrome');
    expect(urls[8]).toBe('https://api.example/get-report/windows-firefox');
    expect(sim.runs['matrix-consuming-results']).toHaveLength(9);
    expect(sim.results['pr-result-1']).toEqual(urls);
  });

  it('ignore-step-error: onError from a param', () => {
    const sim = simulate(tektonExample('ignore-step-error'), {
      execute: (run): Attempt => (run.name === 'task1' ? { results: { 'task1-result': '123' } } : {}),
    });
    expect(lastRun(sim, 'task1').steps.map((s) => s.onError)).toEqual(['continue', 'continue']);
    expect(lastRun(sim, 'task2').params['task1-result']).toBe('123');
  });
});
