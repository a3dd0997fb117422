import { describe, expect, it } from 'vitest';
import { FakeExecutor } from './fake-executor.js';
import { neverAborted, recordingIo, step, taskRun } from './local-executor.test-helper.js';

const run = (name: string) => taskRun('/nowhere', [step('one'), step('two')], { name });

describe('FakeExecutor', () => {
  it('succeeds by default and records every call', async () => {
    const fake = new FakeExecutor();
    const outcome = await fake.runTask(run('build'), recordingIo(), neverAborted());
    expect(outcome).toMatchObject({ status: 'succeeded', reason: '', attempts: 1, results: {} });
    expect(outcome.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
    expect(fake.callsOf('build')).toHaveLength(1);
    expect(fake.calls[0]!.outcome).toBe(outcome);
  });

  it('plays scripted outcomes in sequence, the last one repeating, with results and lines', async () => {
    const fake = new FakeExecutor().script(
      'test',
      { status: 'failed', reason: 'step "one" exited with code 1' },
      { results: { report: 'ok' }, lines: ['hello'] },
    );
    const io = recordingIo();
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await fake.runTask(run('test'), io, neverAborted())).status);
    expect(statuses).toEqual(['failed', 'succeeded', 'succeeded']);
    expect(fake.calls[0]!.outcome!.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
    expect(fake.calls[1]!.outcome!.results).toEqual({ report: 'ok' });
    expect(io.texts('stdout')).toEqual(['hello', 'hello']);
  });

  it('holds a task until released, counts in-flight and ends as cancelled on abort', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fake = new FakeExecutor().script('held', { until: gate });
    const controller = new AbortController();
    const a = fake.runTask(run('held'), recordingIo(), neverAborted());
    const b = fake.runTask(run('held'), recordingIo(), controller.signal);
    expect(fake.inFlight).toBe(2);
    controller.abort();
    expect((await b).status).toBe('cancelled');
    release();
    expect((await a).status).toBe('succeeded');
    expect([fake.inFlight, fake.maxInFlight]).toEqual([0, 2]);
  });
});
