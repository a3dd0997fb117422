// Throughput: 500 runs of a 5-task chain (`true` steps) queued at once on the embedded database,
// with the engine's default limits (4 runs per workspace, 2 per pipeline; 5 pipelines here so the
// workspace limit is the one that binds). Runs per minute from the first queued to the last
// finished, and the p95 time from a run being queued to its first step starting.
// Target: above 600 runs a minute on PGlite, with every step sandboxed (issue 10; 300 before).
import { percentile, report, startPipelineServer } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const PIPELINES = 5;
const chain = Array.from({ length: 5 }, (_, i) =>
  [
    `    - name: t${i}`,
    ...(i > 0 ? [`      runAfter: [t${i - 1}]`] : []),
    `      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }`,
  ].join('\n'),
).join('\n');
const definition = `apiVersion: tekton.dev/v1\nkind: Pipeline\nmetadata: { name: chain }\nspec:\n  tasks:\n${chain}\n`;

const server = await startPipelineServer(
  {},
  process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
);
try {
  const pipelines = [];
  for (let p = 0; p < PIPELINES; p++)
    pipelines.push((await server.api('POST', 'pipelines', { name: `chain-${p}`, definition })).id);
  const ids = [];
  for (let i = 0; i < RUNS; i++)
    ids.push((await server.api('POST', 'pipelineruns', { pipelineId: pipelines[i % PIPELINES] })).id);
  const queuedAllAt = Date.now();
  for (;;) {
    const res = await fetch(`${server.url}/api/pipelineruns?status=completed&_start=0&_end=1`, {
      headers: server.headers,
    });
    const done = Number(res.headers.get('x-total-count'));
    const failed = await fetch(`${server.url}/api/pipelineruns?status=failed&_start=0&_end=1`, {
      headers: server.headers,
    });
    if (Number(failed.headers.get('x-total-count')) > 0) throw new Error('a run failed');
    if (done >= RUNS) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const details = [];
  for (const id of ids) details.push(await server.api('GET', `pipelineruns/${id}`));
  const first = Math.min(...details.map((d) => Date.parse(d.queuedAt)));
  const last = Math.max(...details.map((d) => Date.parse(d.finishedAt)));
  const waits = details.map((d) => {
    const t0 = d.taskRuns.find((t) => t.name === 't0');
    return Date.parse(t0.steps[0].startedAt) - Date.parse(d.queuedAt);
  });
  const perMinute = (RUNS / (last - first)) * 60_000;
  report(`throughput: ${RUNS} queued runs of a 5-task chain (${server.driver})`, {
    'queueing took (s)': ((queuedAllAt - first) / 1000).toFixed(1),
    'first queued → last finished (s)': ((last - first) / 1000).toFixed(1),
    'runs per minute': perMinute.toFixed(0),
    'tasks per second': ((RUNS * 5) / ((last - first) / 1000)).toFixed(1),
    'queue → first step, p50 (s)': (percentile(waits, 50) / 1000).toFixed(1),
    'queue → first step, p95 (s)': (percentile(waits, 95) / 1000).toFixed(1),
    target: '> 600 runs a minute',
    verdict: perMinute > 600 ? 'met' : 'NOT met',
  });
} finally {
  await server.stop();
}
