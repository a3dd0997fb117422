// Web: the JavaScript a first visit to the sign-in route downloads, gzipped.
// Chromium visits /login on a fresh profile; every script response is recorded and its
// gzipped size taken from the file the server sent. Target: < 250 KB.
import { existsSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildIfStale } from '../scripts/build-steps.mjs';
import { freePort, report, waitForReady } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'packages/web/dist');
const route = process.env.BENCH_ROUTE ?? '/login';

buildIfStale();
const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-bench-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['packages/server/dist/main.js'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), SLIPWAY_DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
  stdio: 'ignore',
});
const browser = await chromium.launch({
  executablePath: [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p) => p && existsSync(p),
  ),
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  await waitForReady(url);
  const page = await browser.newPage();
  const scripts = new Set();
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
  });
  await page.goto(url + route, { waitUntil: 'networkidle' });
  let raw = 0;
  let gz = 0;
  const rows = [];
  for (const p of [...scripts].sort()) {
    const data = readFileSync(path.join(dist, p));
    const g = gzipSync(data, { level: 9 }).length;
    raw += data.length;
    gz += g;
    rows.push(`${p} ${(g / 1024).toFixed(1)} KB`);
  }
  report(`web: JavaScript downloaded by a first visit to ${route}`, {
    files: scripts.size,
    'raw (KB)': (raw / 1024).toFixed(1),
    'gzipped (KB)': (gz / 1024).toFixed(1),
    target: '< 250 KB gzipped',
    verdict: gz / 1024 < 250 ? 'met' : 'NOT met',
    detail: `\n  ${rows.join('\n  ')}`,
  });
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
