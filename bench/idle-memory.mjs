// Idle memory: RSS of the server process after start-up and a few requests, then 5 s idle.
// On the embedded database (PGlite, in-process) and, when it answers, on PostgreSQL.
// Target: < 250 MB RSS.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildIfStale } from '../scripts/build-steps.mjs';
import { freePort, report, rssMb, waitForReady } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function measure(extraEnv) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['packages/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      SLIPWAY_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...extraEnv,
    },
    stdio: 'ignore',
  });
  try {
    await waitForReady(url);
    for (const p of [
      '/api/healthz',
      '/api/readyz',
      '/config/config.json',
      '/',
      '/dashboard',
      '/api/openapi.json',
    ]) {
      await (await fetch(url + p)).arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 5000));
    return rssMb(child.pid);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresAnswers() {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

buildIfStale();
const figures = {};
figures['embedded PGlite (MB RSS)'] = (await measure({})).toFixed(0);
if (await postgresAnswers())
  figures['PostgreSQL via DATABASE_URL (MB RSS)'] = (await measure({ DATABASE_URL: PG_URL })).toFixed(0);
figures.target = '< 250 MB';
report('idle memory of the server process', figures);
