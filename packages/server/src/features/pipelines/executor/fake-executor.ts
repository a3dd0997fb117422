import type { Executor, StepOutcome, TaskIo, TaskOutcome, TaskStatus } from './executor.js';
import type { ResolvedTaskRun } from './types.js';

/** What the fake does for one call of a task. */
export interface FakeScript {
  status?: TaskStatus;
  reason?: string;
  results?: Record<string, string>;
  /** Lines written as stdout of the first step. */
  lines?: string[];
  /** Time the task "runs"; an abort during it ends the call as cancelled. */
  delayMs?: number;
  /** The task runs until this settles (or the signal aborts); lets a test hold tasks in flight. */
  until?: Promise<unknown>;
}

export interface FakeCall {
  run: ResolvedTaskRun;
  startedAt: Date;
  finishedAt?: Date;
  outcome?: TaskOutcome;
}

/**
 * An in-memory Executor for the scheduler's unit tests: outcomes scripted per task name (a
 * sequence, the last one repeating; success by default), every call recorded, in-flight counted.
 */
export class FakeExecutor implements Executor {
  readonly calls: FakeCall[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private readonly scripts = new Map<string, FakeScript[]>();

  /** Scripts the next calls for `taskName`; each call takes the next entry, the last one repeats. */
  script(taskName: string, ...outcomes: FakeScript[]): this {
    this.scripts.set(taskName, outcomes);
    return this;
  }

  callsOf(taskName: string): FakeCall[] {
    return this.calls.filter((call) => call.run.name === taskName);
  }

  async runTask(run: ResolvedTaskRun, io: TaskIo, signal: AbortSignal): Promise<TaskOutcome> {
    const call: FakeCall = { run, startedAt: new Date() };
    this.calls.push(call);
    const queue = this.scripts.get(run.name) ?? [];
    const script: FakeScript = (queue.length > 1 ? queue.shift() : queue[0]) ?? {};
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const first = run.steps[0]?.name ?? '';
      let seq = 0;
      for (const text of script.lines ?? []) {
        io.onLine({ step: first, stream: 'stdout', text, at: new Date(), seq: ++seq, attempt: 1 });
      }
      const aborted = await waitOrAbort(script, signal);
      const status: TaskStatus = aborted ? 'cancelled' : (script.status ?? 'succeeded');
      const reason = aborted
        ? 'the task was cancelled'
        : (script.reason ?? (status === 'succeeded' ? '' : status));
      const outcome: TaskOutcome = {
        status,
        reason,
        steps: stepsOf(run, call.startedAt, status, reason),
        results: status === 'succeeded' ? { ...script.results } : {},
        attempts: 1,
      };
      for (const step of outcome.steps) io.onStepState(step.name, step.status);
      call.finishedAt = new Date();
      call.outcome = outcome;
      return outcome;
    } finally {
      this.inFlight -= 1;
    }
  }
}

function stepsOf(run: ResolvedTaskRun, startedAt: Date, status: TaskStatus, reason: string): StepOutcome[] {
  const now = new Date();
  return run.steps.map((step, index) => {
    if (status === 'succeeded') {
      return { name: step.name, status, exitCode: 0, startedAt, finishedAt: now, reason: '' };
    }
    if (index === 0) {
      const exitCode = status === 'failed' ? 1 : null;
      return { name: step.name, status, exitCode, startedAt, finishedAt: now, reason };
    }
    const skip = `skipped: step "${run.steps[0]?.name ?? ''}" ${status === 'timed_out' ? 'timed out' : status}`;
    return {
      name: step.name,
      status: 'skipped',
      exitCode: null,
      startedAt: null,
      finishedAt: null,
      reason: skip,
    };
  });
}

/** Resolves true when the signal aborted before the scripted wait ended. */
function waitOrAbort(script: FakeScript, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  const waits: Promise<unknown>[] = [];
  if (script.delayMs) waits.push(new Promise((resolve) => setTimeout(resolve, script.delayMs)));
  if (script.until) waits.push(script.until);
  if (waits.length === 0) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const onAbort = () => resolve(true);
    signal.addEventListener('abort', onAbort, { once: true });
    void Promise.all(waits).then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(signal.aborted);
    });
  });
}
