import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../pipelines/definition/index.js';
import { SECTION_TIMEOUT_TASK_REASON } from './run-document-timeouts.js';
import { RunSections, TASKS_TIMEOUT_SKIP } from './run-sections.js';
import type { TaskRunRow } from './task-store.js';

/* The two clocks of a run's sections (timeouts.tasks from the run's start, timeouts.finally from its first finally task). */

const node = (isFinally: boolean) => ({ name: isFinally ? 'cleanup' : 'build', isFinally }) as GraphNode;
const trigger = (timeouts: Record<string, string>) => ({
  kind: 'user',
  document: { kind: 'PipelineRun', timeouts },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a run's section clocks", () => {
  it("ends the tasks section at timeouts.tasks, counted from the run's start: its tasks stop, finally does not", async () => {
    const run = new AbortController();
    const sections = new RunSections(
      { trigger: trigger({ pipeline: '1m', tasks: '1s' }), startedAt: new Date(Date.now() - 900) },
      run.signal,
    );
    sections.start([], () => false);
    expect(sections.stopReason).toBeUndefined();
    await sleep(250);
    expect(sections.signal(node(false)).aborted).toBe(true);
    expect(sections.signal(node(true)).aborted).toBe(false);
    expect(sections.timedOut(node(false))).toBe(SECTION_TIMEOUT_TASK_REASON);
    expect(sections.timedOut(node(true))).toBeUndefined();
    expect(sections.stopReason).toBe(TASKS_TIMEOUT_SKIP);
    expect(sections.tasksTimeoutReason).toBe("the run's tasks exceeded timeouts.tasks of 1s");
    sections.stop();
  });

  it('leaves the tasks alone once they are done or finally has started (a resumed run keeps its finally start)', async () => {
    const long = {
      trigger: trigger({ pipeline: '1m', tasks: '100ms', finally: '1s' }),
      startedAt: new Date(Date.now() - 5_000),
    };
    const done = new RunSections(long, new AbortController().signal);
    done.start([], () => true);
    const resumed = new RunSections(long, new AbortController().signal);
    const finallyRow = { isFinally: true, startedAt: new Date(Date.now() - 950) } as TaskRunRow;
    resumed.start([finallyRow], () => false);
    await sleep(250);
    expect(done.stopReason).toBeUndefined();
    expect(resumed.stopReason).toBeUndefined();
    // the finally clock started 950 ms ago with the row: 1 s has passed by now
    expect(resumed.signal(node(true)).aborted).toBe(true);
    expect(resumed.timedOut(node(true))).toBe(SECTION_TIMEOUT_TASK_REASON);
    done.stop();
    resumed.stop();
  });

  it('has no clocks without sections, and stops both sections with the run', () => {
    const run = new AbortController();
    const sections = new RunSections({ trigger: { kind: 'user' }, startedAt: new Date() }, run.signal);
    sections.start([], () => false);
    sections.finallyStarting();
    run.abort(new Error('the run was cancelled'));
    expect(sections.signal(node(false)).aborted).toBe(true);
    expect(sections.signal(node(true)).aborted).toBe(true);
    // stopped by the run, not by a section: the run's own stop decides the tasks' status
    expect(sections.timedOut(node(false))).toBeUndefined();
    expect(sections.stopReason).toBeUndefined();
  });
});
