import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConcurrency, Semaphore } from './concurrency.js';
import { LocalExecutor } from './local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from './local-executor.test-helper.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('Semaphore', () => {
  it('defaults to the CPU count', () => {
    expect(new Semaphore().limit).toBe(defaultConcurrency());
    expect(defaultConcurrency()).toBeGreaterThanOrEqual(1);
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });

  it('serves waiters in order and hands a released slot straight on', async () => {
    const limiter = new Semaphore(1);
    const order: string[] = [];
    const first = await limiter.acquire();
    const b = limiter.acquire().then((release) => (order.push('b'), release));
    const c = limiter.acquire().then((release) => (order.push('c'), release));
    expect([limiter.inFlight, limiter.waiting]).toEqual([1, 2]);
    first();
    first(); // releasing twice frees one slot only
    (await b)();
    (await c)();
    expect(order).toEqual(['b', 'c']);
    expect([limiter.inFlight, limiter.waiting]).toEqual([0, 0]);
  });

  it('drops a waiter whose signal aborts', async () => {
    const limiter = new Semaphore(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort('run cancelled');
    await expect(waiting).rejects.toBe('run cancelled');
    expect(limiter.waiting).toBe(0);
    release();
    expect(limiter.inFlight).toBe(0);
  });

  it('releases the slot when the work throws', async () => {
    const limiter = new Semaphore(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.inFlight).toBe(0);
    await expect(limiter.run(async () => 'ok')).resolves.toBe('ok');
  });

  it('never lets more than the limit run at once', async () => {
    const limiter = new Semaphore(3);
    let now = 0;
    let max = 0;
    await Promise.all(
      Array.from({ length: 12 }, () =>
        limiter.run(async () => {
          max = Math.max(max, ++now);
          await tick();
          now -= 1;
        }),
      ),
    );
    expect(max).toBe(3);
  });

  it('bounds real LocalExecutor tasks: max in flight measured from step timestamps', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch') });
      const limiter = new Semaphore(2);
      const started = Date.now();
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          limiter.run(() =>
            executor.runTask(
              taskRun(join(dir, `t${i}`), [step('nap', { command: ['sleep', '0.2'] })], { name: `t${i}` }),
              recordingIo(),
              neverAborted(),
            ),
          ),
        ),
      );
      const wall = Date.now() - started;
      const spans = outcomes.map(
        (o) => [o.steps[0]!.startedAt!.getTime(), o.steps[0]!.finishedAt!.getTime()] as const,
      );
      const maxInFlight = Math.max(
        ...spans.map(([start]) => spans.filter(([s, e]) => s <= start && start < e).length),
      );
      expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
      expect(maxInFlight).toBe(2);
      expect(wall).toBeGreaterThanOrEqual(3 * 200); // 6 tasks of 200 ms, two at a time
    } finally {
      await cleanup();
    }
  });
});
