import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultConcurrency, Semaphore } from './concurrency.js';
import type { TaskIo } from './executor.js';
import { LocalExecutor } from './local-executor.js';
import type { ResolvedTaskRun } from './types.js';

/**
 * Benchmark helpers for bench/ (not tests): the fan-out target compares N one-step `true`
 * tasks through the LocalExecutor with the N bare processes at the same concurrency.
 */

const quietIo: TaskIo = {
  onLine: () => {},
  onStepState: () => {},
  secretValue: () => Promise.reject(new Error('no secrets in the probe')),
};

/** Wall time (ms) of `n` tasks, each one step running `true`, through LocalExecutor and a Semaphore. */
export async function executorFanout(n: number, concurrency: number = defaultConcurrency()): Promise<number> {
  const root = await mkdtemp(join(tmpdir(), 'slipway-fanout-'));
  try {
    const executor = new LocalExecutor({ scratchRoot: join(root, 'scratch') });
    const limiter = new Semaphore(concurrency);
    const signal = new AbortController().signal;
    const task = (i: number): ResolvedTaskRun => ({
      name: `t${i}`,
      steps: [
        { name: 'run', image: 'none', command: ['true'], env: {}, secretEnv: [], onError: 'stopAndFail' },
      ],
      resultsDir: join(root, 'results', `t${i}`),
      results: [],
      workspaces: {},
      retries: 0,
    });
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: n }, (_, i) => limiter.run(() => executor.runTask(task(i), quietIo, signal))),
    );
    const wall = performance.now() - started;
    const failed = outcomes.filter((o) => o.status !== 'succeeded');
    if (failed.length > 0) throw new Error(`${failed.length} probe tasks failed: ${failed[0]?.reason}`);
    return wall;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Wall time (ms) of `n` bare `true` processes, at most `concurrency` at once. */
export async function plainFanout(n: number, concurrency: number = defaultConcurrency()): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next += 1;
      await new Promise<void>((resolve, reject) => {
        const child = spawn('true', [], { stdio: 'ignore' });
        child.on('error', reject);
        child.on('exit', () => resolve());
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return performance.now() - started;
}
