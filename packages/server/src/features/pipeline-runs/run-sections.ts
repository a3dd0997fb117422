import { setMaxListeners } from 'node:events';
import type { GraphNode } from '../pipelines/definition/index.js';
import { SECTION_TIMEOUT_TASK_REASON, sectionTimeouts, tasksTimeoutReason } from './run-document-timeouts.js';
import { documentRecordOf } from './run-service-accounts.js';
import type { RunRow } from './run-store.js';
import type { TaskRunRow } from './task-store.js';

/** Why the tasks not started when `timeouts.tasks` passes are skipped (Tekton's TasksTimedOutSkip). */
export const TASKS_TIMEOUT_SKIP = 'PipelineRun Tasks timeout has been reached';

type Section = 'tasks' | 'finally';

/**
 * The deadlines of a run's two sections (a PipelineRun's `timeouts.tasks` and `timeouts.finally`,
 * as Tekton's reconciler keeps them): `tasks` runs from the run's start, `finally` from its first
 * finally task's start. When one passes, that section's running task runs are stopped (timed out,
 * with Tekton's TaskRunCancelledByPipelineTimeoutMsg); after `tasks`, no other task starts and the
 * finally tasks still run. The run's own deadline (`timeouts.pipeline`) is the driver's.
 */
export class RunSections {
  private readonly controllers: Record<Section, AbortController> = {
    tasks: new AbortController(),
    finally: new AbortController(),
  };
  private readonly ended: Partial<Record<Section, true>> = {};
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly tasksMs: number | undefined;
  private readonly finallyMs: number | undefined;
  private finallyStarted = false;
  /** every non-finally task is done (the driver's states) */
  private tasksDone: () => boolean = () => false;

  constructor(
    private readonly run: Pick<RunRow, 'trigger' | 'startedAt'>,
    runSignal: AbortSignal,
  ) {
    const sections = sectionTimeouts(documentRecordOf(run.trigger).timeouts);
    this.tasksMs = sections.tasksMs;
    this.finallyMs = sections.finallyMs;
    for (const c of Object.values(this.controllers)) setMaxListeners(0, c.signal);
    runSignal.addEventListener(
      'abort',
      () => {
        for (const c of Object.values(this.controllers)) c.abort(runSignal.reason);
      },
      { once: true },
    );
  }

  /** Starts the clocks: `tasks` from the run's start; `finally` from a finally task that ran before a restart. */
  start(existing: readonly TaskRunRow[], tasksDone: () => boolean): void {
    this.tasksDone = tasksDone;
    const since = (at: Date | null | undefined) => Date.now() - (at ?? new Date()).getTime();
    if (this.tasksMs !== undefined) this.arm('tasks', this.tasksMs - since(this.run.startedAt));
    const finallyStarts = existing
      .filter((t) => t.isFinally && t.startedAt)
      .map((t) => t.startedAt!.getTime())
      .sort((a, b) => a - b);
    if (finallyStarts.length > 0) this.finallyStarting(new Date(finallyStarts[0]!));
  }

  /** A finally task starts: the first one starts the `finally` clock. */
  finallyStarting(at = new Date()): void {
    if (this.finallyStarted) return;
    this.finallyStarted = true;
    if (this.finallyMs !== undefined) this.arm('finally', this.finallyMs - (Date.now() - at.getTime()));
  }

  stop(): void {
    this.timers.forEach((t) => clearTimeout(t));
  }

  /** The signal a task of this node runs under. */
  signal(node: GraphNode): AbortSignal {
    return this.controllers[node.isFinally ? 'finally' : 'tasks'].signal;
  }

  /** The reason the node's stopped task runs end with, once its section's deadline passed. */
  timedOut(node: GraphNode): string | undefined {
    return this.ended[node.isFinally ? 'finally' : 'tasks'] ? SECTION_TIMEOUT_TASK_REASON : undefined;
  }

  /** The scheduler's stop reason once `timeouts.tasks` passed: no other task starts, finally runs. */
  get stopReason(): string | undefined {
    return this.ended.tasks ? TASKS_TIMEOUT_SKIP : undefined;
  }

  /** The run's reason when it did not succeed after `timeouts.tasks` passed (Tekton: PipelineRunTimeout). */
  get tasksTimeoutReason(): string | undefined {
    return this.ended.tasks && this.tasksMs !== undefined ? tasksTimeoutReason(this.tasksMs) : undefined;
  }

  private arm(section: Section, ms: number): void {
    const timer = setTimeout(() => this.end(section), Math.max(0, ms));
    timer.unref();
    this.timers.push(timer);
  }

  private end(section: Section): void {
    // Tekton times the tasks out only until the finally tasks start (FinallyStartTime unset); the
    // tasks may all be done with finally about to start
    if (section === 'tasks' && (this.finallyStarted || this.tasksDone())) return;
    this.ended[section] = true;
    // the section's running tasks end; the scheduler then looks again (stopReason)
    this.controllers[section].abort(new Error(SECTION_TIMEOUT_TASK_REASON));
  }
}
