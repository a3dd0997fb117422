// Fan-out overhead: a pipeline of 1 → 100 parallel → 1 tasks whose steps run `true`, through the
// whole server (API, engine, database, local executor), against the same 102 processes launched
// by a plain script at the same concurrency (the CPU count: the local executor's step slots). Wall
// time of the run is from its start to its end as the server recorded them. Each round runs the
// plain script and then the pipeline, back to back, and the figure is the median of the rounds'
// ratios: on a shared 2-core VM the machine's speed drifts by 2× within a minute, and a ratio of
// two runs made seconds apart cancels most of it (the ratio of the two medians is shown too).
// Target: at most 2× the plain script.
//
// The server sandboxes its steps (decision 020): each task gets a network namespace (unshare,
// nftables, slirp4netns) and each step a bubblewrap sandbox. The plain script then launches the
// very same sandboxes, built by the same code, per task at the same concurrency, so the ratio is
// Slipway's cost over the sandbox's own; the unsandboxed `sh -c true` and the sandbox start-up
// per step are printed beside it. SLIPWAY_LOCAL_EXECUTOR=unsandboxed compares with `sh -c true`.
import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { median, percentile, report, runFinished, startPipelineServer } from './lib.mjs';

const sandboxed = process.env.SLIPWAY_LOCAL_EXECUTOR !== 'unsandboxed';
const sandboxDir = '../packages/server/dist/features/pipelines/executor/sandbox/';
const { probeSandbox } = await import(`${sandboxDir}probe.js`);
const { podPlan, sandboxCommand } = await import(`${sandboxDir}sandbox-command.js`);
const { startPod } = await import(`${sandboxDir}pod.js`);
const HOST_USER = { uid: 880000, gid: 880000 };
const probeDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-probe-'));
chmodSync(probeDir, 0o711); // the sandbox's host user reaches resolv.conf in it
const support = sandboxed ? probeSandbox({ stateDir: probeDir, hostUser: HOST_USER }) : undefined;
if (support && !support.available) throw new Error(`no sandbox here: ${support.reason}`);

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

/** One task's sandbox, as the executor makes it: its network namespace, then `true` in bubblewrap. */
async function sandboxedTrue() {
  const pod = support.network ? await startPod(podPlan(support.tools, [])) : undefined;
  const plan = sandboxCommand({
    tools: support.tools,
    root: { entries: support.hostRoot, resolvConf: support.resolvConf, varTmp: true },
    mounts: [],
    cwd: '/',
    uid: 0,
    gid: 0,
    ...(support.root ? { hostUser: HOST_USER } : {}),
    ...(pod ? { netnsPid: pod.pid } : {}),
    hostname: 'bench',
    argv: ['/bin/sh', '-c', 'true'],
  });
  const fds = plan.fds.map((f) => openSync(f, 'r'));
  try {
    await new Promise((resolve, reject) => {
      const p = spawn(plan.file, plan.args, { stdio: ['ignore', 'pipe', 'pipe', ...fds] });
      fds.forEach((fd) => closeSync(fd));
      let said = '';
      p.stderr.on('data', (d) => (said += d));
      p.on('error', reject);
      p.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`sandbox exited ${code}: ${said}`)),
      );
    });
  } finally {
    pod?.stop();
  }
}

/** The same 102 tasks: one, then 100 at the given concurrency, then one. */
async function plain(one = sandboxed ? sandboxedTrue : sh) {
  const sh = one;
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
  const bareMs = [];
  const stepMs = [];
  /** per round, where the run's time went (from the steps' own start and end times) */
  const phases = [];
  for (let r = 0; r < ROUNDS; r++) {
    plainMs.push(await plain());
    if (sandboxed) bareMs.push(await plain(sh));
    const created = await server.api('POST', 'pipelineruns', { pipelineId: pipeline.id });
    const run = await runFinished(server, created.id);
    if (run.status !== 'succeeded') throw new Error(`the fan-out run ended ${run.status}: ${run.reason}`);
    if (run.taskRuns.length !== WIDTH + 2) throw new Error(`${run.taskRuns.length} task runs`);
    engineMs.push(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
    phases.push(phasesOf(run));
    for (const task of run.taskRuns)
      stepMs.push(Date.parse(task.steps[0].finishedAt) - Date.parse(task.steps[0].startedAt));
  }
  const phase = (key) => median(phases.map((p) => p[key])).toFixed(0);
  const ratio = median(engineMs.map((ms, i) => ms / plainMs[i]));
  const ofMedians = median(engineMs) / median(plainMs);
  report('pipeline fan-out 1 → 100 → 1 (`true` steps)', {
    concurrency,
    rounds: ROUNDS,
    'pipeline run, start → end (ms, median)': median(engineMs).toFixed(0),
    'pipeline runs (ms)': engineMs.map((x) => x.toFixed(0)).join(', '),
    [sandboxed
      ? 'plain script, the same 102 sandboxes (ms, median)'
      : 'plain script, 102 processes (ms, median)']: median(plainMs).toFixed(0),
    ...(sandboxed
      ? {
          'plain script, 102 unsandboxed `sh -c true` (ms, median)': median(bareMs).toFixed(0),
          'pipeline / unsandboxed plain (median)': `${(median(engineMs) / median(bareMs)).toFixed(2)}×`,
          'a sandboxed `true` step, spawn → exit (ms, p50 / p90)': `${percentile(stepMs, 50).toFixed(0)} / ${percentile(stepMs, 90).toFixed(0)}`,
        }
      : {}),
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
  rmSync(probeDir, { recursive: true, force: true });
}
