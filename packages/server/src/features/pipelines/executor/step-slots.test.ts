import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalExecutor } from './local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from './local-executor.test-helper.js';
import { StepSpawner, type SpawnerMode } from './step-spawner.js';

describe.each<SpawnerMode>(['helper', 'in-process'])('step slots (%s)', (mode) => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it('runs at most `slots` steps at once; the next starts when one ends, in order', async () => {
    const spawner = new StepSpawner(mode, 1);
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner });
    const log = join(dir, 'order');
    const task = (name: string) =>
      executor.runTask(
        taskRun(
          dir,
          [step(name, { script: `echo "${name} start" >> ${log}; sleep 0.2; echo "${name} end" >> ${log}` })],
          {
            name,
          },
        ),
        recordingIo(),
        neverAborted(),
      );
    const outcomes = await Promise.all([task('a'), task('b'), task('c')]);
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(log, 'utf8')).trim().split('\n')).toEqual([
      'a start',
      'a end',
      'b start',
      'b end',
      'c start',
      'c end',
    ]);
  });

  it("starts a task's timeout when its first step runs, not while it waits for a slot", async () => {
    const spawner = new StepSpawner(mode, 1);
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner });
    const long = executor.runTask(
      taskRun(dir, [step('long', { script: 'sleep 0.6' })], { name: 'long' }),
      recordingIo(),
      neverAborted(),
    );
    const io = recordingIo();
    const waiting = executor.runTask(
      taskRun(dir, [step('quick', { script: 'true' })], { name: 'quick', timeoutMs: 400 }),
      io,
      neverAborted(),
    );
    expect((await long).status).toBe('succeeded');
    const outcome = await waiting;
    expect(outcome.status).toBe('succeeded');
    // pending while it waited, running once it had a slot
    expect(io.states.map(([, state]) => state)).toEqual(['pending', 'running', 'succeeded']);
  });

  it('drops a step aborted while it waits for a slot: it never runs and ends cancelled', async () => {
    const spawner = new StepSpawner(mode, 1);
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner });
    const marker = join(dir, 'ran');
    const first = executor.runTask(
      taskRun(dir, [step('hold', { script: 'sleep 0.5' })], { name: 'hold' }),
      recordingIo(),
      neverAborted(),
    );
    const controller = new AbortController();
    const queued = executor.runTask(
      taskRun(dir, [step('queued', { script: `touch ${marker}` })], { name: 'queued' }),
      recordingIo(),
      controller.signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort('stopped by the test');
    const outcome = await queued;
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: 'cancelled' });
    expect(outcome.steps[0]).toMatchObject({ status: 'cancelled', exitCode: null });
    expect((await first).status).toBe('succeeded');
    const { access } = await import('node:fs/promises');
    await expect(access(marker)).rejects.toThrow();
  });
});
