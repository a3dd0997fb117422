import { stateInfo, type TaskStates } from './task-states.js';

export type PipelineStatus = 'Running' | 'Succeeded' | 'Failed';
export type PipelineReason =
  'Running' | 'Stopping' | 'Succeeded' | 'Completed' | 'Failed' | 'Cancelled' | 'PipelineRunTimeout';

export interface PipelineOutcome {
  status: PipelineStatus;
  reason: PipelineReason;
  /** Tekton's summary, e.g. `Tasks Completed: 3 (Failed: 0, Cancelled 0), Skipped: 1`. */
  message: string;
  counts: { succeeded: number; failed: number; skipped: number; incomplete: number };
}

export interface OutcomeOptions {
  /** How the run was stopped, if it was: a timeout or an abort. */
  stoppedBy?: 'timeout' | 'cancel';
}

/**
 * Derives the run's status from every task's state (tasks and finally tasks), per Tekton:
 * any failure → Failed; all done with some skipped → Succeeded / Completed; all succeeded →
 * Succeeded / Succeeded; otherwise Running. A timeout or cancel fails the run once it is done.
 */
export function pipelineOutcome(states: TaskStates, options: OutcomeOptions = {}): PipelineOutcome {
  const counts = { succeeded: 0, failed: 0, skipped: 0, incomplete: 0 };
  for (const value of Object.values(states)) {
    const { state } = stateInfo(value);
    if (state === 'pending' || state === 'running') counts.incomplete += 1;
    else counts[state] += 1;
  }
  const completed = counts.succeeded + counts.failed;
  const cancelled = options.stoppedBy === 'cancel' ? counts.skipped : 0;
  const incomplete = counts.incomplete > 0 ? `, Incomplete: ${counts.incomplete}` : '';
  const message = `Tasks Completed: ${completed} (Failed: ${counts.failed}, Cancelled ${cancelled})${incomplete}, Skipped: ${counts.skipped}`;
  if (counts.incomplete > 0)
    return {
      status: 'Running',
      reason: options.stoppedBy || counts.failed > 0 ? 'Stopping' : 'Running',
      message,
      counts,
    };
  if (options.stoppedBy === 'timeout')
    return { status: 'Failed', reason: 'PipelineRunTimeout', message, counts };
  if (options.stoppedBy === 'cancel') return { status: 'Failed', reason: 'Cancelled', message, counts };
  if (counts.failed > 0) return { status: 'Failed', reason: 'Failed', message, counts };
  if (counts.skipped > 0) return { status: 'Succeeded', reason: 'Completed', message, counts };
  return { status: 'Succeeded', reason: 'Succeeded', message, counts };
}
