/** A pipeline task's state as the scheduler tracks it. `failed` means failed with no retries left. */
export type TaskState = 'pending' | 'running' | 'succeeded' | 'failed' | 'skipped';

/** Why a task was skipped; only `when` lets tasks ordered after it (by runAfter alone) still run. */
export type SkipCause = 'when' | 'parentFailed' | 'parentSkipped' | 'missingResults' | 'stopping';

export interface TaskStateInfo {
  state: TaskState;
  skipCause?: SkipCause;
}

export type TaskStates = Readonly<Record<string, TaskState | TaskStateInfo | undefined>>;

export function stateInfo(value: TaskState | TaskStateInfo | undefined): TaskStateInfo {
  if (value === undefined) return { state: 'pending' };
  return typeof value === 'string' ? { state: value } : value;
}

export const isDone = (state: TaskState) =>
  state === 'succeeded' || state === 'failed' || state === 'skipped';

/**
 * Tekton's finally-task variables: `$(tasks.<t>.status)` is Succeeded, Failed or None (skipped or
 * not run); `$(tasks.status)` is Failed if any failed, Completed if some were skipped, else Succeeded.
 */
export function taskStatusVariables(names: readonly string[], states: TaskStates) {
  const taskStatuses: Record<string, string> = {};
  let failed = false;
  let skipped = false;
  for (const name of names) {
    const { state } = stateInfo(states[name]);
    taskStatuses[name] = state === 'succeeded' ? 'Succeeded' : state === 'failed' ? 'Failed' : 'None';
    failed ||= state === 'failed';
    skipped ||= state === 'skipped';
  }
  const tasksStatus = failed ? 'Failed' : skipped ? 'Completed' : 'Succeeded';
  return { taskStatuses, taskReasons: { ...taskStatuses }, tasksStatus };
}
