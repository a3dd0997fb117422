import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalExecutor } from './local-executor.js';
import {
  dead,
  neverAborted,
  recordingIo,
  step,
  taskRun,
  tempDir,
  waitFor,
} from './local-executor.test-helper.js';
import { StepSpawner } from './step-spawner.js';

async function pidFrom(file: string): Promise<number> {
  for (let i = 0; i < 100; i += 1) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim()) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no pid in ${file}`);
}

describe('StepSpawner: steps forked by a helper process', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it('forks steps from the helper, not from this process, with output, env and cwd kept', async () => {
    const spawner = new StepSpawner();
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner });
    const io = recordingIo();
    const outcome = await executor.runTask(
      taskRun(dir, [
        step('ppid', {
          script: 'echo "parent $PPID"\necho "greeting $GREETING"\npwd\necho oops >&2\nexit 3',
          env: { GREETING: 'hi' },
          workingDir: join(dir, 'work'),
        }),
      ]),
      io,
      neverAborted(),
    );
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', exitCode: 3 });
    const helper = spawner.helperPid;
    expect(helper).toBeGreaterThan(0);
    expect(helper).not.toBe(process.pid);
    expect(io.texts('stdout')).toEqual([`parent ${helper}`, 'greeting hi', join(dir, 'work')]);
    expect(io.texts('stderr')).toEqual(['oops']);
  });

  it("times a step by the helper's clock, not by when this process got round to reading the news", async () => {
    const spawner = new StepSpawner();
    const before = Date.now();
    const group = await spawner.spawnGroup('sh', ['-c', 'sleep 0.1'], {
      cwd: dir,
      env: { PATH: process.env.PATH! },
    });
    expect(await group.started).toBe(true);
    // this process is busy for 400 ms after the step ended (as it is while PGlite runs a statement)
    await new Promise((resolve) => setTimeout(resolve, 150));
    const busyUntil = Date.now() + 400;
    while (Date.now() < busyUntil) {
      // hold the event loop
    }
    const end = await group.done;
    const startedAt = group.startedAt!;
    expect(startedAt).toBeGreaterThanOrEqual(before);
    expect(end.endedAt! - startedAt).toBeGreaterThanOrEqual(90);
    // the end was stamped when the step ended, well before this process could read it
    expect(end.endedAt!).toBeLessThan(busyUntil - 200);
  });

  it('names a command that cannot start, as the in-process spawn does', async () => {
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner: new StepSpawner() });
    const outcome = await executor.runTask(
      taskRun(dir, [step('missing', { command: ['no-such-binary-slipway'] })]),
      recordingIo(),
      neverAborted(),
    );
    expect(outcome.reason).toBe('command "no-such-binary-slipway" not found on this host');
  });

  it('kills the steps of a helper that dies, ends them as killed, and starts a new helper', async () => {
    const spawner = new StepSpawner();
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner });
    const pidFile = join(dir, 'pid');
    const running = executor.runTask(
      taskRun(dir, [step('sleep', { script: `echo $$ > ${pidFile}\nexec sleep 30` })]),
      recordingIo(),
      neverAborted(),
    );
    const stepPid = await pidFrom(pidFile);
    const first = spawner.helperPid!;
    process.kill(first, 'SIGKILL');
    const outcome = await running;
    expect(outcome.steps[0]).toMatchObject({ status: 'failed', exitCode: null });
    expect(outcome.reason).toContain('killed by signal SIGKILL');
    expect(await waitFor(() => dead(stepPid), 1000)).toBe(true);

    const io = recordingIo();
    await executor.runTask(taskRun(dir, [step('again', { script: 'echo $PPID' })]), io, neverAborted());
    expect(spawner.helperPid).toBeGreaterThan(0);
    expect(spawner.helperPid).not.toBe(first);
    expect(io.texts('stdout')).toEqual([String(spawner.helperPid)]);
  });

  it('carries a large output whole and in order (flow-controlled), then removes the scratch dir', async () => {
    const scratchRoot = join(dir, 'scratch');
    const executor = new LocalExecutor({ scratchRoot, spawner: new StepSpawner() });
    const io = recordingIo();
    const outcome = await executor.runTask(
      taskRun(dir, [step('seq', { script: 'seq 1 200000' })]),
      io,
      neverAborted(),
    );
    expect(outcome.status).toBe('succeeded');
    const out = io.texts('stdout');
    expect(out.length).toBe(200000);
    expect(out.every((text, i) => text === String(i + 1))).toBe(true);
    expect(await readdir(scratchRoot)).toEqual([]);
  });

  it('fails a step whose scratch dir cannot be made, naming why', async () => {
    await writeFile(join(dir, 'file'), '');
    const executor = new LocalExecutor({
      scratchRoot: join(dir, 'file', 'scratch'),
      spawner: new StepSpawner(),
    });
    const outcome = await executor.runTask(
      taskRun(dir, [step('s', { script: 'true' })]),
      recordingIo(),
      neverAborted(),
    );
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/^step "s" could not be prepared: Error: ENOTDIR/);
  });

  it('forks from this process in in-process mode', async () => {
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), spawner: 'in-process' });
    const io = recordingIo();
    await executor.runTask(taskRun(dir, [step('ppid', { script: 'echo $PPID' })]), io, neverAborted());
    expect(io.texts('stdout')).toEqual([String(process.pid)]);
  });
});
