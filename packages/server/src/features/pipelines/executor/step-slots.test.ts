import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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
    const release = join(dir, 'release');
    // holds the one slot until the test lets it go: no race with the machine's load
    const long = executor.runTask(
      taskRun(dir, [step('long', { script: `while [ ! -e ${release} ]; do sleep 0.02; done` })], {
        name: 'long',
      }),
      recordingIo(),
      neverAborted(),
    );
    const io = recordingIo();
    const waiting = executor.runTask(
      taskRun(dir, [step('quick', { script: 'true' })], { name: 'quick', timeoutMs: 1500 }),
      io,
      neverAborted(),
    );
    // waits longer than the quick task's timeout before the slot frees
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await writeFile(release, '');
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
    const held = join(dir, 'held');
    const release = join(dir, 'release');
    const first = executor.runTask(
      taskRun(
        dir,
        [step('hold', { script: `touch ${held}; while [ ! -e ${release} ]; do sleep 0.02; done` })],
        { name: 'hold' },
      ),
      recordingIo(),
      neverAborted(),
    );
    const controller = new AbortController();
    const queued = executor.runTask(
      taskRun(dir, [step('queued', { script: `touch ${marker}` })], { name: 'queued' }),
      recordingIo(),
      controller.signal,
    );
    // the first step holds the one slot until released, so the second is surely waiting
    while (!existsSync(held)) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort('stopped by the test');
    const outcome = await queued;
    await writeFile(release, '');
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: 'cancelled' });
    expect(outcome.steps[0]).toMatchObject({ status: 'cancelled', exitCode: null });
    expect((await first).status).toBe('succeeded');
    expect(existsSync(marker)).toBe(false);
  });
});
