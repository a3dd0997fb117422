import type { Reference } from './references.js';

const RETRY_COUNT = '$(context.task.retry-count)';

/** `$(context.task.retry-count)`: left in a resolved task run until its attempt starts. */
export const isRetryCount = (reference: Reference): boolean =>
  reference.kind === 'context' && reference.variable === 'task.retry-count';

/**
 * The task run as attempt `attempt` (1 for the first) runs it: `$(context.task.retry-count)` in
 * its steps and sidecars becomes the number of retries before it (0, 1, …), as Tekton counts
 * `status.retriesStatus`. Executors call it for each attempt.
 */
export function forAttempt<R extends { steps: readonly unknown[]; sidecars?: readonly unknown[] }>(
  run: R,
  attempt: number,
): R {
  const count = String(Math.max(0, attempt - 1));
  const fill = <T>(value: T): T => {
    const text = JSON.stringify(value);
    return text.includes(RETRY_COUNT) ? (JSON.parse(text.replaceAll(RETRY_COUNT, count)) as T) : value;
  };
  const steps = fill(run.steps);
  const sidecars = run.sidecars && fill(run.sidecars);
  if (steps === run.steps && sidecars === run.sidecars) return run;
  return { ...run, steps, ...(sidecars ? { sidecars } : {}) };
}
