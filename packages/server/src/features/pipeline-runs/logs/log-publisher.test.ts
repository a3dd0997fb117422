import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskFinish } from '../task-store.js';
import { LogHub } from './log-hub.js';
import { FINISH_GATHER_MS, LogPublisher } from './log-publisher.js';

const end = (taskRunId: string): TaskFinish => ({
  taskRunId,
  status: 'succeeded',
  reason: '',
  results: {},
  steps: [],
  lines: [],
});
const sink = { appendLog: async () => 1, notify: async () => {}, lastLogSeq: async () => 0 };

describe('LogPublisher.finishTask', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gathers the ends of a run's tasks that end close together into one statement", async () => {
    const publisher = new LogPublisher(sink, new LogHub(), null);
    const store = vi.fn(async (_run: string, _ends: TaskFinish[]) => new Map<string, number>());
    const a = publisher.finishTask('r', end('a'), store, true);
    await vi.advanceTimersByTimeAsync(FINISH_GATHER_MS / 5);
    expect(store).not.toHaveBeenCalled();
    const b = publisher.finishTask('r', end('b'), store, true);
    await vi.advanceTimersByTimeAsync(FINISH_GATHER_MS);
    await Promise.all([a, b]);
    expect(store).toHaveBeenCalledTimes(1);
    expect(store.mock.calls[0]![1].map((e) => e.taskRunId)).toEqual(['a', 'b']);
  });

  it('writes at once when the last running task of the run ends, with those waiting', async () => {
    const publisher = new LogPublisher(sink, new LogHub(), null);
    const store = vi.fn(async (_run: string, _ends: TaskFinish[]) => new Map<string, number>());
    const a = publisher.finishTask('r', end('a'), store, true);
    const b = publisher.finishTask('r', end('b'), store, false);
    await Promise.all([a, b]); // no timer advanced: it did not wait
    expect(store).toHaveBeenCalledTimes(1);
    expect(store.mock.calls[0]![1]).toHaveLength(2);
  });
});
