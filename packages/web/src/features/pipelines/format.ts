import type { PipelineRunStatus } from '@slipway/contracts';

/** The chip colour of a run, task or step status. */
export const STATUS_COLOR: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  in_progress: 'info',
  running: 'info',
  succeeded: 'success',
  failed: 'error',
  timed_out: 'warning',
  cancelled: 'warning',
  skipped: 'default',
};

/** The run list's status filter options (spec §4), as the API accepts them. */
export const RUN_FILTERS = [
  ['failed', 'failed'],
  ['completed', 'completed'],
  ['pending', 'pending'],
  ['inProgress', 'in progress'],
  ['timedOut', 'timed out'],
  ['cancelled', 'cancelled'],
] as const;

/** A span of time, short: "350ms", "4s", "2m 3s", "1h 2m". */
export function formatDuration(ms: number): string {
  if (ms > 0 && ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** How long a run or task took, or has taken so far; empty before it starts. */
export function durationOf(startedAt: string | null, finishedAt: string | null, now = Date.now()): string {
  if (!startedAt) return '';
  const end = finishedAt ? Date.parse(finishedAt) : now;
  return formatDuration(end - Date.parse(startedAt));
}

// the app-wide date-time format; re-exported for this feature's own files
export { formatTime } from '../../ui/format';

export const ACTIVE_STATUSES: readonly PipelineRunStatus[] = ['pending', 'in_progress'];
