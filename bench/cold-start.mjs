// Cold start: `npm start` to the first 200 from /api/readyz, after install and build, on an
// existing data directory (the everyday restart) and on an empty one (first start: initdb).
// Target: < 5 s.
//
// `node bench/cold-start.mjs <checkout>` measures another checkout instead, without building it
// first: on a fresh `git clone` after `npm ci`, the first start includes building the server, the
// agent and the web app (decision 024; target ≤ 15 s), and the report lists each build step.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build-steps.mjs';
import { freePort, median, report, waitForReady } from './lib.mjs';

const checkout = process.argv[2];
const root = checkout ? path.resolve(checkout) : fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

async function timedStart(dataDir) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      SLIPWAY_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  // "slipway: built the server in 0.4 s"
  const built = [];
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      const m = /^slipway: built (.+) in ([\d.]+) s$/.exec(out.slice(0, nl));
      if (m) built.push(`${m[1]} ${m[2]} s`);
      out = out.slice(nl + 1);
    }
  });
  try {
    await waitForReady(url, 300_000);
    return { ms: performance.now() - started, built };
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

if (!checkout) buildIfStale();
const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
try {
  const load = loadavg()[0].toFixed(2);
  const first = await timedStart(dataDir);
  const restarts = [];
  for (let i = 0; i < RUNS; i++) restarts.push((await timedStart(dataDir)).ms);
  const figures = {
    checkout: root,
    'load average (1 min) before the first start': load,
    [`first start, empty data dir${checkout ? ', building what is stale' : ''} (ms)`]: first.ms.toFixed(0),
  };
  if (checkout) figures['built before listening'] = first.built.join(', ') || 'nothing';
  Object.assign(figures, {
    [`restart, median of ${RUNS} (ms)`]: median(restarts).toFixed(0),
    'restart, all runs (ms)': restarts.map((x) => x.toFixed(0)).join(', '),
    target: checkout ? 'first start ≤ 15000 ms, restart < 5000 ms' : '< 5000 ms',
    verdict: median(restarts) < 5000 && (!checkout || first.ms <= 15_000) ? 'met' : 'NOT met',
  });
  report('cold start (npm start → 200 from /api/readyz)', figures);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
