// Tekton definition layer: validating and expanding a 200-task pipeline with matrix and results
// (issue 14). One round is what the API and the engine do with such a text: parse and validate it
// (checkDefinition: every Task, the Pipeline, every `$(...)`), build its graph, then for each task
// in order fan out its matrix and resolve every task run against the results of the tasks before
// it (resolveTaskRun: params, propagation, workspaces, every step's `$(...)`), and finally the
// pipeline's results. No database, no executor: the step outcomes are made up, typed as Tekton
// reads them. The figure is the median of the rounds after a warm-up. Target: ≤ 50 ms.
import { buildIfStale } from '../scripts/build-steps.mjs';
import { median, report } from './lib.mjs';

buildIfStale(['server']);
const definition = await import('../packages/server/dist/features/pipelines/definition/index.js');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const TASKS = 200;
const WIDTH = 20; // tasks per layer: layer n reads the results of layer n - 1

const catalogueTask = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: build
spec:
  params:
    - name: image
    - name: flags
      type: array
      default: ["--quiet"]
    - name: platform
      default: linux/amd64
    - name: source
      properties: { url: {}, revision: {} }
  results:
    - name: digest
    - name: tags
      type: array
    - name: image
      properties: { url: {}, digest: {} }
  workspaces:
    - name: output
  steps:
    - name: build
      image: gcr.io/kaniko-project/executor:v1.23.0
      args: ["--destination=$(params.image)", "$(params.flags)", "--custom-platform=$(params.platform)"]
      env:
        - { name: SOURCE_URL, value: "$(params.source.url)" }
        - { name: REVISION, value: "$(params.source.revision)" }
      script: |
        cd $(workspaces.output.path)
        echo -n sha256:abc > $(results.digest.path)
        echo -n '["latest","$(context.taskRun.name)"]' > $(results.tags.path)
`;

function pipelineTask(i) {
  const layer = Math.floor(i / WIDTH);
  const name = `t${i}`;
  const lines = [`    - name: ${name}`];
  if (i % 10 === 5) {
    // a matrixed inline task: 2 × 3 runs, reading an array result of the layer before
    const from = `t${(layer - 1) * WIDTH + (i % WIDTH) + 1}`; // a build task: it has tags
    lines.push(
      '      matrix:',
      '        params:',
      '          - { name: arch, value: [amd64, arm64] }',
      layer > 0
        ? `          - { name: tag, value: ["$(tasks.${from}.results.tags[0])", b, c] }`
        : '          - { name: tag, value: [a, b, c] }',
      '      taskSpec:',
      '        params: [{ name: arch }, { name: tag }]',
      '        results: [{ name: digest }]',
      '        steps:',
      '          - name: push',
      '            image: alpine',
      '            script: echo $(params.arch) $(params.tag) $(params.registry) > $(results.digest.path)',
    );
    return lines.join('\n');
  }
  lines.push(
    '      taskRef: { name: build }',
    '      workspaces: [{ name: output, workspace: shared }]',
    '      params:',
  );
  if (layer > 0) {
    const from = `t${(layer - 1) * WIDTH + ((i + 1) % WIDTH)}`;
    const producer = from.endsWith('5') ? `t${(layer - 1) * WIDTH + ((i + 2) % WIDTH)}` : from;
    lines.push(
      `        - { name: image, value: "$(params.registry)/app-${i}@$(tasks.${producer}.results.digest)" }`,
      `        - { name: flags, value: ["$(tasks.${producer}.results.tags[*])", "--cache=true"] }`,
      `        - { name: source, value: { url: "$(tasks.${producer}.results.image.url)", revision: "$(params.revision)" } }`,
    );
  } else
    lines.push(
      `        - { name: image, value: "$(params.registry)/app-${i}" }`,
      '        - { name: source, value: { url: "https://git.test/app.git", revision: "$(params.revision)" } }',
    );
  if (i % 7 === 0) lines.push('      when: [{ input: "$(params.deploy)", operator: in, values: ["true"] }]');
  return lines.join('\n');
}

const pipelineText = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: wide
spec:
  params:
    - { name: registry, default: registry.test/team }
    - { name: revision, default: main }
    - { name: deploy, default: "true" }
  workspaces: [{ name: shared }]
  results:
    - { name: last-digest, value: "$(tasks.t${TASKS - 1}.results.digest)" }
    - { name: last-tags, value: "$(tasks.t${TASKS - 1}.results.tags[*])" }
  tasks:
${Array.from({ length: TASKS }, (_, i) => pipelineTask(i)).join('\n')}
`;
const text = `${catalogueTask}---\n${pipelineText}`;

/** One round: validate, then expand and resolve every task run in order. */
function round() {
  const started = performance.now();
  const checked = definition.checkDefinition(text);
  if (!checked.ok) throw new Error(`invalid: ${JSON.stringify(checked.errors.slice(0, 3))}`);
  const validated = performance.now();
  const spec = checked.pipeline.spec;
  const catalogue = new Map(checked.tasks.map((t) => [t.metadata.name, t]));
  const params = definition.resolvePipelineParams(spec, {}, { pipelineRun: { name: 'wide-1', uid: 'u' } });
  const graph = definition.buildGraph(spec);
  const taskResults = {};
  let runs = 0;
  for (const name of graph.order) {
    const node = graph.nodes.find((n) => n.name === name);
    const ctx = { params: params.params, taskResults, context: { pipelineRun: { name: 'wide-1' } } };
    const taskSpec = definition.taskSpecFor(node.task, catalogue);
    const outcomes = [];
    for (const pt of definition.expandMatrix(node.task, ctx)) {
      const run = definition.resolveTaskRun(pt, taskSpec, {
        ...ctx,
        resultsDir: `/runs/wide-1/results/${pt.name}`,
        pipelineWorkspaces: { shared: '/runs/wide-1/workspaces/shared' },
        context: { ...ctx.context, taskRun: { name: `wide-1-${pt.name}`, uid: `u-${pt.name}` } },
      });
      runs += 1;
      const raw = {
        digest: `sha256:${runs}`,
        tags: '["latest","x"]',
        image: '{"url":"r.test/a","digest":"d"}',
      };
      const declared = Object.fromEntries(run.results.map((r) => [r, raw[r]]));
      outcomes.push(definition.typedResults(taskSpec.results, declared).results);
    }
    taskResults[name] = node.task.matrix ? definition.aggregateMatrixResults(outcomes) : outcomes[0];
  }
  const results = definition.resolvePipelineResults(spec, { taskResults });
  if (!Array.isArray(results['last-tags'])) throw new Error('pipeline results did not resolve');
  const done = performance.now();
  return { total: done - started, validate: validated - started, expand: done - validated, runs };
}

for (let i = 0; i < 5; i++) round(); // warm-up: the JIT
const rounds = Array.from({ length: ROUNDS }, round);
const total = median(rounds.map((r) => r.total));
report('Tekton: validate and expand a 200-task pipeline with matrix and results', {
  'pipeline tasks': TASKS,
  'task runs resolved': rounds[0].runs,
  'definition size (KB)': (text.length / 1024).toFixed(1),
  'validate, median (ms)': median(rounds.map((r) => r.validate)).toFixed(1),
  'expand and resolve, median (ms)': median(rounds.map((r) => r.expand)).toFixed(1),
  'total, median (ms)': total.toFixed(1),
  'target (ms)': 50,
  verdict: total <= 50 ? 'PASS' : 'FAIL',
});
process.exit(total <= 50 ? 0 : 1);
