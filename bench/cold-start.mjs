// Cold start: `npm start` to the first 200 from /api/readyz, after install and build, on an
// existing data directory (the everyday restart) and on an empty one (first start: initdb).
// Target: < 5 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../scripts/build-steps.mjs';
import { freePort, median, report, waitForReady } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
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
    stdio: 'ignore',
    detached: true,
  });
  try {
    await waitForReady(url);
    return performance.now() - started;
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

buildIfStale();
const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
try {
  const first = await timedStart(dataDir);
  const restarts = [];
  for (let i = 0; i < RUNS; i++) restarts.push(await timedStart(dataDir));
  report('cold start (npm start → 200 from /api/readyz)', {
    'first start, empty data dir (ms)': first.toFixed(0),
    [`restart, median of ${RUNS} (ms)`]: median(restarts).toFixed(0),
    'restart, all runs (ms)': restarts.map((x) => x.toFixed(0)).join(', '),
    target: '< 5000 ms',
    verdict: median(restarts) < 5000 ? 'met' : 'NOT met',
  });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
