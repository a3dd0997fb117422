import type { PipelineRunStatus } from '@slipway/contracts';
import {
  aggregateMatrixResults,
  formatDuration,
  type ParamValue,
  type PipelineOutcome,
  type TaskStateInfo,
} from '../pipelines/definition/index.js';
import type { TaskOutcome, TaskStatus } from '../pipelines/executor/executor.js';
import type { TaskRunRow } from './task-store.js';

export const MINUTE_MS = 60_000;

/** How long a run may last, and the reason it ends with when it lasts longer. */
export interface RunTimeout {
  ms: number;
  reason: string;
}

/**
 * A run's effective timeout: its own, or its organisation's cap on a run's duration
 * (`maxRunMinutes`, null for none) when that is shorter, with the reason naming which one.
 */
export function effectiveTimeout(
  timeoutMs: number,
  maxRunMinutes: number | null | undefined,
  minuteMs = MINUTE_MS,
): RunTimeout {
  const own = { ms: timeoutMs, reason: `the run exceeded its timeout of ${formatDuration(timeoutMs)}` };
  if (maxRunMinutes === null || maxRunMinutes === undefined) return own;
  const capMs = maxRunMinutes * minuteMs;
  if (capMs >= timeoutMs) return own;
  const minutes = `${maxRunMinutes} minute${maxRunMinutes === 1 ? '' : 's'}`;
  return { ms: capMs, reason: `the run exceeded the organisation's limit of ${minutes}` };
}

/** The run's stored status and reason from Tekton's outcome and how the run was stopped. */
export function finalStatus(
  outcome: PipelineOutcome,
  timeout: number | RunTimeout,
  failedTask: string | undefined,
  failedReason: string | undefined,
): { status: PipelineRunStatus; reason: string } {
  if (outcome.status === 'Succeeded') return { status: 'succeeded', reason: outcome.reason };
  if (outcome.reason === 'PipelineRunTimeout')
    return {
      status: 'timed_out',
      reason: typeof timeout === 'number' ? effectiveTimeout(timeout, null).reason : timeout.reason,
    };
  if (outcome.reason === 'Cancelled') return { status: 'cancelled', reason: 'Cancelled' };
  if (outcome.status === 'Running')
    return { status: 'failed', reason: 'the scheduler could not make progress: tasks left pending' };
  if (failedTask)
    return { status: 'failed', reason: `task "${failedTask}" failed: ${failedReason || 'failed'}` };
  return { status: 'failed', reason: 'Failed' };
}

/** A task ended while the run was stopping: record it as timed out / cancelled, not as its own failure. */
export function stoppedTaskStatus(
  outcome: TaskOutcome,
  by: 'timeout' | 'cancel',
): { status: TaskStatus; reason: string } | undefined {
  if (outcome.status === 'succeeded') return undefined;
  return by === 'timeout'
    ? { status: 'timed_out', reason: 'the pipeline run timed out' }
    : { status: 'cancelled', reason: 'the run was cancelled' };
}

/** Scheduler states of a resumed run from its finished task runs (matrix runs folded per task). */
export function restoredStates(
  rows: readonly TaskRunRow[],
  results: Record<string, Record<string, ParamValue>>,
): Record<string, TaskStateInfo> {
  const groups = new Map<string, TaskRunRow[]>();
  for (const row of rows) groups.set(row.pipelineTask, [...(groups.get(row.pipelineTask) ?? []), row]);
  const states: Record<string, TaskStateInfo> = {};
  for (const [name, group] of groups) {
    if (group.some((r) => r.status === 'pending' || r.status === 'running')) continue;
    if (group.some((r) => r.status !== 'succeeded' && r.status !== 'skipped'))
      states[name] = { state: 'failed' };
    else if (group.every((r) => r.status === 'skipped'))
      states[name] = { state: 'skipped', skipCause: 'when' };
    else {
      states[name] = { state: 'succeeded' };
      const matrixed = group.length > 1 || group[0]!.name !== name;
      const values = group.map((r) => (r.results ?? {}) as Record<string, ParamValue>);
      results[name] = matrixed ? aggregateMatrixResults(values) : values[0]!;
    }
  }
  return states;
}
