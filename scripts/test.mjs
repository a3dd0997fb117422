// `npm test`: every test — unit, API integration on a real database, and browser end-to-end.
// Builds the web app first when stale (the end-to-end tests drive the built app), then runs
// Vitest and closes with one summary line, "N passed, N failed, N skipped".
// Extra arguments go to Vitest, e.g. `npm test -- --project server`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildIfStale, root } from './build-steps.mjs';

const args = process.argv.slice(2);
const onlyUnits = args.includes('--project') && !args.includes('e2e');
if (!onlyUnits) buildIfStale(['web'], { precompress: 'skip' });

const resultsDir = path.join(root, 'test-results');
mkdirSync(resultsDir, { recursive: true });
const label = process.env.DATABASE_URL ? 'postgresql' : 'pglite';
const report = path.join(resultsDir, `vitest-${label}.json`);
const r = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...args,
  ],
  { cwd: root, stdio: 'inherit' },
);
let summary = 'no report written';
try {
  const j = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = j.numPendingTests + j.numTodoTests;
  summary = `${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`;
} catch {
  // vitest failed before reporting; its exit code says so
}
console.log(`\n${label}: ${summary}`);
process.exit(r.status ?? 1);
