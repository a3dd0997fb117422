import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalExecutor } from './local-executor.js';
import {
  dead,
  neverAborted,
  reaped,
  recordingIo,
  step,
  taskRun,
  tempDir,
  waitFor,
} from './local-executor.test-helper.js';

async function pidFrom(file: string): Promise<number> {
  for (let i = 0; i < 100; i += 1) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim()) return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no pid in ${file}`);
}

/** Killed at once (dead, at most a zombie of PID 1), then reaped by PID 1: kill(pid, 0) → ESRCH. */
async function expectGone(pid: number): Promise<void> {
  expect(await waitFor(() => dead(pid), 500)).toBe(true);
  // This VM's init reaps orphans only every second or two; a normal init does it at once.
  expect(await waitFor(() => reaped(pid), 5000)).toBe(true);
}

async function expectDead(pid: number): Promise<void> {
  expect(await waitFor(() => dead(pid), 500)).toBe(true);
}

describe('LocalExecutor: timeouts, abort and the process group', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let executor: LocalExecutor;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch'), killGraceMs: 300 });
  });
  afterEach(() => cleanup());

  it('ends a step that exceeds its timeout, naming step and timeout, and skips the rest', async () => {
    const io = recordingIo();
    const run = taskRun(dir, [
      step('slow', { command: ['sleep', '5'], timeoutMs: 200 }),
      step('after', { command: ['true'] }),
    ]);
    const started = Date.now();
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(outcome).toMatchObject({
      status: 'timed_out',
      reason: 'step "slow" exceeded its timeout of 200ms',
    });
    expect(outcome.steps.map((s) => s.status)).toEqual(['timed_out', 'skipped']);
    expect(io.texts('system')).toContain('step "slow" exceeded its timeout of 200ms');
  });

  it('goes on after a step timeout when the step has onError continue', async () => {
    const run = taskRun(dir, [
      step('slow', { command: ['sleep', '5'], timeoutMs: 150, onError: 'continue' }),
      step('after', { command: ['true'] }),
    ]);
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome.status).toBe('succeeded');
    expect(outcome.steps.map((s) => s.status)).toEqual(['timed_out', 'succeeded']);
  });

  it('ends the task when the task timeout passes, across steps', async () => {
    const run = taskRun(
      dir,
      [
        step('a', { command: ['sleep', '0.2'] }),
        step('b', { command: ['sleep', '5'], onError: 'continue' }),
        step('c', { command: ['true'] }),
      ],
      { name: 'build', timeoutMs: 400 },
    );
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome).toMatchObject({
      status: 'timed_out',
      reason: 'task "build" exceeded its timeout of 400ms',
    });
    expect(outcome.steps.map((s) => s.status)).toEqual(['succeeded', 'timed_out', 'skipped']);
    expect(outcome.steps[2]!.reason).toBe('skipped: step "b" timed out');
  });

  it('retries a timed-out task (Tekton retries timeouts too) with a fresh timeout per attempt', async () => {
    const run = taskRun(dir, [step('s', { command: ['sleep', '5'] })], { timeoutMs: 150, retries: 1 });
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome).toMatchObject({ status: 'timed_out', attempts: 2 });
  });

  it('on abort kills the whole process group, background grandchild included', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const io = recordingIo();
    const controller = new AbortController();
    const run = taskRun(dir, [
      step('serve', { script: `sleep 60 &\necho $! > ${pidFile}\necho started\nwait` }),
      step('next', { command: ['true'] }),
    ]);
    const running = executor.runTask(run, io, controller.signal);
    const grandchild = await pidFrom(pidFile);
    expect(reaped(grandchild)).toBe(false);
    controller.abort('aborted by alice');
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'cancelled', reason: 'aborted by alice' });
    expect(outcome.steps.map((s) => s.status)).toEqual(['cancelled', 'skipped']);
    expect(io.texts('stdout')).toEqual(['started']);
    await expectGone(grandchild);
  });

  it('kills background processes a step leaves behind when it ends normally', async () => {
    const pidFile = join(dir, 'bg.pid');
    const run = taskRun(dir, [step('leaky', { script: `sleep 60 &\necho $! > ${pidFile}\necho done` })]);
    const started = Date.now();
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    expect(outcome.status).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(2000);
    await expectDead(await pidFrom(pidFile));
  });

  it('sends SIGKILL after the grace period to a group that ignores SIGTERM', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const script = `trap "" TERM\nsleep 60 &\necho $! > ${pidFile}\nwait`;
    const run = taskRun(dir, [step('stubborn', { script, timeoutMs: 100 })]);
    const started = Date.now();
    const outcome = await executor.runTask(run, recordingIo(), neverAborted());
    const took = Date.now() - started;
    expect(outcome.status).toBe('timed_out');
    expect(took).toBeGreaterThanOrEqual(350); // 100 ms timeout + 300 ms grace
    expect(took).toBeLessThan(3000);
    await expectDead(await pidFrom(pidFile));
  });

  it('stops reading output held open by a process that escaped the group (setsid), and says so', async () => {
    const io = recordingIo();
    const run = taskRun(dir, [step('escape', { script: 'setsid sleep 2 &\nsleep 0.2\necho bye' })]);
    const started = Date.now();
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome.status).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(1900);
    expect(io.texts('stdout')).toEqual(['bye']);
    expect(io.texts('system').at(-1)).toMatch(/left the step's process group kept its output open/);
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const io = recordingIo();
    const outcome = await executor.runTask(
      taskRun(dir, [step('a', { command: ['true'] })], { retries: 3 }),
      io,
      controller.signal,
    );
    expect(outcome).toMatchObject({ status: 'cancelled', reason: 'the task was cancelled', attempts: 1 });
    expect(outcome.steps[0]).toMatchObject({ status: 'skipped', reason: 'skipped: the task was cancelled' });
    expect(io.lines).toEqual([]);
  });
});
