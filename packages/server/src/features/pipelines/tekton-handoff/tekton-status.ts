import type { PipelineRunStatus } from '@slipway/contracts';
import type { StepEnd } from '../../pipeline-runs/task-store.js';
import type { ParamValue } from '../definition/index.js';
import type { TaskStatus } from '../executor/executor.js';
import { TASKS_TIMEOUT_REASON } from '../../pipeline-runs/run-document-timeouts.js';

/**
 * Tekton's status, as its controller writes it on PipelineRuns and TaskRuns (tektoncd/pipeline
 * docs/pipelineruns.md and taskruns.md, "Monitoring execution status"), read into Slipway's
 * run, task run and step records. Pure: the driver feeds it the objects its watches see.
 */

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}
interface StepState {
  name?: string;
  container?: string;
  running?: { startedAt?: string };
  waiting?: { reason?: string; message?: string };
  terminated?: {
    exitCode?: number;
    reason?: string;
    message?: string;
    startedAt?: string;
    finishedAt?: string;
  };
  terminationReason?: string;
}
interface Result {
  name?: string;
  value?: unknown;
}
export interface TektonObject {
  metadata?: { name?: string; labels?: Record<string, string> };
  status?: {
    conditions?: Condition[];
    podName?: string;
    steps?: StepState[];
    results?: Result[];
    childReferences?: { kind?: string; name?: string; pipelineTaskName?: string }[];
    skippedTasks?: { name?: string; reason?: string }[];
    startTime?: string;
    completionTime?: string;
  };
}

const succeeded = (o: TektonObject): Condition | undefined =>
  o.status?.conditions?.find((c) => c.type === 'Succeeded');

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isStringRecord = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((x) => typeof x === 'string');

/**
 * Results as Slipway stores them (typedResults): strings, arrays of strings and objects of
 * strings as Tekton reports them; anything else as its JSON text.
 */
export function resultsOf(results: readonly Result[] | undefined): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const r of results ?? []) {
    if (!r.name) continue;
    const v = r.value;
    out[r.name] = typeof v === 'string' || isStrings(v) || isStringRecord(v) ? v : JSON.stringify(v ?? '');
  }
  return out;
}

export interface RunEnd {
  status: PipelineRunStatus;
  reason: string;
  message: string;
  results: Record<string, ParamValue>;
}

const CANCELLED = new Set(['Cancelled', 'CancelledRunFinally', 'StoppedRunFinally', 'PipelineRunCancelled']);

/** The run's end from its PipelineRun's `Succeeded` condition; null while it runs (Unknown, or none yet). */
export function pipelineRunEnd(pr: TektonObject, timeoutReason: string): RunEnd | null {
  const c = succeeded(pr);
  if (!c || (c.status !== 'True' && c.status !== 'False')) return null;
  const results = resultsOf(pr.status?.results);
  const message = c.message ?? '';
  if (c.status === 'True') return { status: 'succeeded', reason: c.reason ?? 'Succeeded', message, results };
  if (c.reason && CANCELLED.has(c.reason))
    return { status: 'cancelled', reason: 'Cancelled', message, results };
  if (c.reason === 'PipelineRunTimeout') {
    // Tekton's words when timeouts.tasks passed rather than the whole run's timeout
    const tasks = /failed due to tasks failed to finish within "([^"]+)"/.exec(message);
    const reason = tasks ? `${TASKS_TIMEOUT_REASON}${tasks[1]}` : timeoutReason;
    return { status: 'timed_out', reason, message, results };
  }
  return {
    status: 'failed',
    reason: `${c.reason ?? 'Failed'}: ${message}`.replace(/: $/, ''),
    message,
    results,
  };
}

export interface TaskRunEnd {
  status: TaskStatus;
  reason: string;
  results: Record<string, ParamValue>;
}

/**
 * A TaskRun's end from its `Succeeded` condition; null while it runs. `False` without a
 * `completionTime` is an error Tekton may still recover from (taskruns.md): not an end yet.
 */
export function taskRunEnd(tr: TektonObject): TaskRunEnd | null {
  const c = succeeded(tr);
  if (!c || (c.status !== 'True' && c.status !== 'False')) return null;
  if (c.status === 'False' && !tr.status?.completionTime) return null;
  const results = resultsOf(tr.status?.results);
  if (c.status === 'True') return { status: 'succeeded', reason: '', results };
  const message = c.message ? `: ${c.message}` : '';
  if (c.reason === 'TaskRunCancelled')
    return { status: 'cancelled', reason: `TaskRunCancelled${message}`, results };
  if (c.reason === 'TaskRunTimeout')
    return { status: 'timed_out', reason: `TaskRunTimeout${message}`, results };
  return { status: 'failed', reason: `${c.reason ?? 'Failed'}${message}`, results };
}

/** A step's container name: Tekton's `step-<name>` unless the status names it. */
export const stepContainer = (step: StepState): string => step.container ?? `step-${step.name ?? ''}`;

/** The steps of a TaskRun's status: which run (their logs can be followed) and which ended. */
export function stepStates(
  tr: TektonObject,
): { name: string; container: string; started: boolean; end: StepEnd | null }[] {
  return (tr.status?.steps ?? []).map((s) => {
    const name = s.name ?? '';
    const started = Boolean(s.running || s.terminated);
    if (!s.terminated) return { name, container: stepContainer(s), started, end: null };
    const t = s.terminated;
    const why = s.terminationReason ?? t.reason ?? '';
    const exitCode = typeof t.exitCode === 'number' ? t.exitCode : null;
    const status =
      why === 'Skipped'
        ? 'skipped'
        : why === 'TimeoutExceeded'
          ? 'timed_out'
          : why === 'TaskRunCancelled' || why === 'Cancelled'
            ? 'cancelled'
            : exitCode === 0
              ? 'succeeded'
              : 'failed';
    return {
      name,
      container: stepContainer(s),
      started,
      end: {
        name,
        status,
        exitCode,
        reason: status === 'succeeded' ? '' : why === 'Error' || !why ? `exit code ${exitCode ?? '?'}` : why,
        startedAt: t.startedAt ? new Date(t.startedAt) : null,
        finishedAt: t.finishedAt ? new Date(t.finishedAt) : null,
      },
    };
  });
}

/** The pipeline task a TaskRun runs: Tekton's `tekton.dev/pipelineTask` label, or the PipelineRun's childReferences. */
export function pipelineTaskOf(tr: TektonObject, pr: TektonObject | undefined): string | undefined {
  const label = tr.metadata?.labels?.['tekton.dev/pipelineTask'];
  if (label) return label;
  return pr?.status?.childReferences?.find((c) => c.name === tr.metadata?.name)?.pipelineTaskName;
}

/**
 * The task run's row name: the TaskRun's name without the PipelineRun's (`<run>-build` → `build`,
 * a matrix's `<run>-build-1` → `build-1`); the pipeline task's name when Tekton shortened it.
 */
export function rowName(taskRunName: string, pipelineRun: string, pipelineTask: string): string {
  return taskRunName.startsWith(`${pipelineRun}-`) ? taskRunName.slice(pipelineRun.length + 1) : pipelineTask;
}
