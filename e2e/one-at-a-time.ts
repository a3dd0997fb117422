/**
 * Browser test files run one at a time, but beside the unit files rather than after them all.
 *
 * Each e2e file starts a real server and a Chromium; two at once on a 2-core machine starve each
 * other (a tour test timed out that way), while running them all after the unit files left one
 * core idle for four minutes. So Vitest runs e2e files in parallel with everything else and this
 * setup file (the e2e project's `setupFiles`) holds a machine-wide lock from before a file's own
 * `beforeAll` to after its `afterAll`. `vitest.sequencer.ts` spreads the e2e files among
 * the unit files so that a worker rarely has to wait here.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

const LOCK = path.join(tmpdir(), 'slipway-e2e-browser.lock');
const OWNER = path.join(LOCK, 'owner');
/** Longer than any e2e file: a worker may wait for one whole file before its turn. */
const WAIT_MS = 15 * 60_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function tryTake(): boolean {
  try {
    mkdirSync(LOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // a lock left by a run that was killed: its owner is gone
    let owner = NaN;
    try {
      owner = Number(readFileSync(OWNER, 'utf8'));
    } catch {
      return false; // just taken, owner not written yet
    }
    if (Number.isInteger(owner) && !alive(owner)) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
  writeFileSync(OWNER, String(process.pid));
  return true;
}

let held = false;

beforeAll(async () => {
  const until = Date.now() + WAIT_MS;
  while (!tryTake()) {
    if (Date.now() > until) throw new Error(`another browser test held ${LOCK} for ${WAIT_MS / 60_000} min`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  held = true;
}, WAIT_MS + 10_000);

afterAll(() => {
  if (held) rmSync(LOCK, { recursive: true, force: true });
  held = false;
});
