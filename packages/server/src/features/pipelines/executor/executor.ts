import type { ResolvedTaskRun } from './types.js';

export type LogStream = 'stdout' | 'stderr' | 'system';

/** One line of a step's output (or a line the executor writes about the step). */
export interface LogLine {
  step: string;
  stream: LogStream;
  /** Without the trailing newline; `\r` and ANSI escapes kept as they are. Secrets already masked. */
  text: string;
  at: Date;
  /** Increases by one per line across the whole task, retries included; starts at 1. */
  seq: number;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
}

export type StepStatus = 'succeeded' | 'failed' | 'timed_out' | 'cancelled' | 'skipped';
export type StepState = 'pending' | 'running' | StepStatus;
export type TaskStatus = 'succeeded' | 'failed' | 'timed_out' | 'cancelled';

export interface TaskIo {
  onLine(line: LogLine): void;
  /** The plain value of one key of a secret; rejects when it cannot be read. */
  secretValue(secret: string, key: string): Promise<string>;
  onStepState(step: string, state: StepState): void;
}

export interface StepOutcome {
  name: string;
  status: StepStatus;
  /** null when the step never started or was ended by a signal. */
  exitCode: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Empty when the step succeeded. */
  reason: string;
}

export interface TaskOutcome {
  status: TaskStatus;
  /** Empty when the task succeeded. */
  reason: string;
  /** The steps of the last attempt. */
  steps: StepOutcome[];
  /** Declared results whose file existed; a missing file leaves the result absent (as Tekton does). */
  results: Record<string, string>;
  attempts: number;
}

/** Runs one resolved task to the end; never rejects for a failure of the task itself. */
export interface Executor {
  runTask(run: ResolvedTaskRun, io: TaskIo, signal: AbortSignal): Promise<TaskOutcome>;
  /**
   * Steps run in containers: tasks are resolved with Tekton's paths (`/workspace/<name>`,
   * `/tekton/results`) and their workspaces' host directories in `mounts`.
   */
  readonly containerPaths?: boolean;
  /** Of these task runs (running when their server stopped), the ones whose steps still run or wait to be stored. */
  recoverable?(taskRunIds: readonly string[]): Promise<Set<string>>;
  /** A task run's end is stored: whatever the executor kept for a restart can go. */
  release?(taskRunId: string): void;
}
