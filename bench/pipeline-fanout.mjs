// Fan-out overhead: a pipeline of 1 → 100 parallel → 1 tasks whose steps run `true`, through the
// whole server (API, engine, database, local executor), against the same 102 processes launched
// by a plain script at the same concurrency (the CPU count: the local executor's step slots). Wall
// time of the run is from its start to its end as the server recorded them. Each round runs the
// plain script and then the pipeline, back to back, and the figure is the median of the rounds'
// ratios: on a shared 2-core VM the machine's speed drifts by 2× within a minute, and a ratio of
// two runs made seconds apart cancels most of it (the ratio of the two medians is shown too).
// Target: at most 2× the plain script.
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { median, report, runFinished, startPipelineServer } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WIDTH = 100;
const concurrency = cpus().length;

const tasks = [`    - name: first\n      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }`];
for (let i = 0; i < WIDTH; i++)
  tasks.push(
    `    - name: mid-${i}\n      runAfter: [first]\n      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }`,
  );
tasks.push(
  `    - name: last\n      runAfter: [${Array.from({ length: WIDTH }, (_, i) => `mid-${i}`).join(', ')}]\n      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }`,
);
const definition = `apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: { name: fanout }\nspec:\n  tasks:\n${tasks.join('\n')}\n`;

function sh() {
  return new Promise((resolve, reject) => {
    const p = spawn('sh', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
    p.on('error', reject);
    p.on('close', resolve);
  });
}

/** The same 102 processes: one, then 100 at the given concurrency, then one. */
async function plain() {
  const started = performance.now();
  await sh();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < WIDTH) {
        next += 1;
        await sh();
      }
    }),
  );
  await sh();
  return performance.now() - started;
}

/** The run's phases from the steps' own times: the gaps between them are the engine's. */
function phasesOf(run) {
  const step = (name) => run.taskRuns.find((t) => t.name === name).steps[0];
  const t = (iso) => Date.parse(iso);
  const mids = run.taskRuns.filter((r) => r.name.startsWith('mid-')).map((r) => r.steps[0]);
  const midStart = Math.min(...mids.map((s) => t(s.startedAt)));
  const midEnd = Math.max(...mids.map((s) => t(s.finishedAt)));
  const first = step('first');
  const last = step('last');
  return {
    toFirst: t(first.startedAt) - t(run.startedAt),
    first: t(first.finishedAt) - t(first.startedAt),
    fanOut: midStart - t(first.finishedAt),
    mid: midEnd - midStart,
    fanIn: t(last.startedAt) - midEnd,
    last: t(last.finishedAt) - t(last.startedAt),
    toEnd: t(run.finishedAt) - t(last.finishedAt),
  };
}

const server = await startPipelineServer(
  {},
  process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
);
try {
  const pipeline = await server.api('POST', 'pipelines', { name: 'fanout', definition });
  const warm = await server.api('POST', 'pipelineruns', { pipelineId: pipeline.id });
  await runFinished(server, warm.id);
  await plain();
  const engineMs = [];
  const plainMs = [];
  /** per round, where the run's time went (from the steps' own start and end times) */
  const phases = [];
  for (let r = 0; r < ROUNDS; r++) {
    plainMs.push(await plain());
    const created = await server.api('POST', 'pipelineruns', { pipelineId: pipeline.id });
    const run = await runFinished(server, created.id);
    if (run.status !== 'succeeded') throw new Error(`the fan-out run ended ${run.status}: ${run.reason}`);
    if (run.taskRuns.length !== WIDTH + 2) throw new Error(`${run.taskRuns.length} task runs`);
    engineMs.push(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
    phases.push(phasesOf(run));
  }
  const phase = (key) => median(phases.map((p) => p[key])).toFixed(0);
  const ratio = median(engineMs.map((ms, i) => ms / plainMs[i]));
  const ofMedians = median(engineMs) / median(plainMs);
  report('pipeline fan-out 1 → 100 → 1 (`true` steps)', {
    concurrency,
    rounds: ROUNDS,
    'pipeline run, start → end (ms, median)': median(engineMs).toFixed(0),
    'pipeline runs (ms)': engineMs.map((x) => x.toFixed(0)).join(', '),
    'plain script, 102 processes (ms, median)': median(plainMs).toFixed(0),
    'plain runs (ms)': plainMs.map((x) => x.toFixed(0)).join(', '),
    'pipeline / plain (median of the rounds)': `${ratio.toFixed(2)}×`,
    'median pipeline / median plain': `${ofMedians.toFixed(2)}×`,
    'where the run went (ms, medians)': [
      `start → first step ${phase('toFirst')}`,
      `first step ${phase('first')}`,
      `→ first of the 100 ${phase('fanOut')}`,
      `the 100 ${phase('mid')}`,
      `→ last step ${phase('fanIn')}`,
      `last step ${phase('last')}`,
      `→ run end ${phase('toEnd')}`,
    ].join(', '),
    target: '<= 2×',
    verdict: ratio <= 2 ? 'met' : 'NOT met',
  });
} finally {
  await server.stop();
}
