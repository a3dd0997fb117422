import { createHash } from 'node:crypto';
import {
  formatDuration,
  substitute,
  TEKTON_API_VERSION,
  type ParamValue,
  type PipelineSpec,
  type SubstitutionContext,
} from '../pipelines/definition/index.js';
import type { RunDocumentRecord } from './run-document.js';
import { DEFAULT_SERVICE_ACCOUNT } from './run-document-rules.js';
import { TASKS_TIMEOUT_REASON } from './run-document-timeouts.js';
import { TASKS_TIMEOUT_SKIP } from './run-sections.js';
import type { RunRow } from './run-store.js';
import type { TaskRunRow } from './task-store.js';

/*
 * A run as a Tekton `tekton.dev/v1` PipelineRun, the way `kubectl get pipelinerun -o yaml` shows
 * one: the spec it ran with, and a status shaped as Tekton's reconciler writes it (the Succeeded
 * condition, start and completion times, child references to its TaskRuns, skipped tasks,
 * results, and the pipeline spec it ran).
 */

type Json = Record<string, unknown>;

export interface ExportInput {
  run: RunRow;
  /** the run's pipeline: a stored one's name, or for an ad-hoc one its definition's (else the run's) */
  pipeline: { name: string; adhoc: boolean };
  /** the pipeline spec the run ran with; undefined when its version no longer loads */
  spec: PipelineSpec | undefined;
  taskRuns: readonly TaskRunRow[];
}

const LONGEST = 63;
const HEAD = LONGEST - 32;

/**
 * A child object's name as Tekton makes it (knative's kmeta.ChildName): `<parent><suffix>`, or,
 * past 63 characters, the parent cut short with an md5 hash in place of what does not fit.
 */
export function childName(parent: string, suffix: string): string {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  if (parent.length <= LONGEST - suffix.length) return parent + suffix;
  if (HEAD - suffix.length <= 0) {
    let out = parent.slice(0, HEAD) + md5(parent + suffix);
    if (out.length < LONGEST) out += suffix.slice(0, LONGEST - out.length);
    return out.replace(/-+$/, '');
  }
  return parent.slice(0, HEAD - suffix.length) + md5(parent) + suffix;
}

/**
 * Entries in the order the pipeline declares them (the database keeps JSON objects with their keys
 * sorted its own way), the undeclared after them.
 */
function declaredOrder(values: Record<string, unknown>, declared: readonly { name: string }[] | undefined) {
  const names = (declared ?? []).map((d) => d.name).filter((n) => Object.hasOwn(values, n));
  const rest = Object.keys(values).filter((n) => !names.includes(n));
  return [...names, ...rest].map((name) => ({ name, value: values[name] }));
}

/** Kubernetes writes times to the second, in UTC. */
const time = (d: Date | null | undefined) => (d ? d.toISOString().replace(/\.\d+Z$/, 'Z') : undefined);

/** Tekton's Succeeded condition for the run's status. */
function condition(run: RunRow, taskRuns: readonly TaskRunRow[]) {
  const byTask = new Map<string, string>();
  // a matrix's combinations are one pipeline task: it failed if one of them did
  for (const t of taskRuns) {
    const before = byTask.get(t.pipelineTask);
    if (!before || t.status === 'failed' || (before === 'succeeded' && t.status !== 'succeeded'))
      byTask.set(t.pipelineTask, t.status);
  }
  const states = [...byTask.values()];
  const count = (...s: string[]) => states.filter((x) => s.includes(x)).length;
  const skipped = count('skipped');
  const completed = count('succeeded', 'failed', 'timed_out', 'cancelled');
  const tally = `Tasks Completed: ${completed} (Failed: ${count('failed', 'timed_out')}, Cancelled ${count('cancelled')}), Skipped: ${skipped}`;
  const incomplete = states.length - completed - skipped;
  switch (run.status) {
    case 'pending':
      return {
        status: 'Unknown',
        reason: 'PipelineRunPending',
        message: 'PipelineRun is queued: it has not started yet',
      };
    case 'in_progress':
      // an abort asked for and not yet done
      if (run.cancelRequestedAt)
        return { status: 'Unknown', reason: 'Cancelled', message: `PipelineRun "${run.name}" was cancelled` };
      return {
        status: 'Unknown',
        reason: 'Running',
        message: `Tasks Completed: ${completed} (Failed: ${count('failed', 'timed_out')}, Cancelled ${count('cancelled')}), Incomplete: ${incomplete}, Skipped: ${skipped}`,
      };
    case 'succeeded':
      return { status: 'True', reason: skipped > 0 ? 'Completed' : 'Succeeded', message: tally };
    case 'timed_out':
      return {
        status: 'False',
        reason: 'PipelineRunTimeout',
        // Tekton's two messages: the whole run's deadline, or its tasks' (timeouts.tasks)
        message: run.reason?.startsWith(TASKS_TIMEOUT_REASON)
          ? `PipelineRun "${run.name}" failed due to tasks failed to finish within "${run.reason.slice(TASKS_TIMEOUT_REASON.length)}"`
          : `PipelineRun "${run.name}" failed to finish within "${formatDuration(run.timeoutMs)}"`,
      };
    case 'cancelled':
      return { status: 'False', reason: 'Cancelled', message: `PipelineRun "${run.name}" was cancelled` };
    default:
      return { status: 'False', reason: 'Failed', message: run.reason ? `${tally}: ${run.reason}` : tally };
  }
}

const WHEN_SKIP = 'When Expressions evaluated to false';

/** Tekton's SkippingReason for a task Slipway skipped, from the reason it recorded. */
export function skippingReason(reason: string | null, run: RunRow): string {
  const text = reason ?? '';
  if (/^parent task ".*" was skipped/.test(text)) return 'Parent Tasks were skipped';
  if (/^results of task ".*" are missing/.test(text)) return 'Results were missing';
  if (/^pipeline is stopping/.test(text) || /^parent task ".*" failed/.test(text)) {
    if (run.status === 'timed_out')
      return run.reason?.startsWith(TASKS_TIMEOUT_REASON)
        ? TASKS_TIMEOUT_SKIP
        : 'PipelineRun timeout has been reached';
    if (run.status === 'cancelled') return 'PipelineRun was gracefully cancelled';
    return 'PipelineRun was stopping';
  }
  return WHEN_SKIP;
}

/** A text with the run's params and task results put in, or as written when it cannot be resolved. */
function resolved(text: string, ctx: SubstitutionContext): string {
  try {
    return substitute(text, ctx);
  } catch {
    return text;
  }
}

/**
 * The when expressions of a task skipped by them, resolved as Tekton lists them in skippedTasks
 * (what it compared, not what was written).
 */
function whenExpressionsOf(input: ExportInput, task: string): Json[] | undefined {
  const pipelineTask = [...(input.spec?.tasks ?? []), ...(input.spec?.finally ?? [])].find(
    (t) => t.name === task,
  );
  const when = (pipelineTask?.when ?? []).filter((w) => w.input !== undefined && w.operator);
  if (when.length === 0) return undefined;
  const taskResults: Record<string, Record<string, ParamValue>> = {};
  for (const t of input.taskRuns)
    if (t.results && t.status === 'succeeded')
      taskResults[t.pipelineTask] = t.results as Record<string, ParamValue>;
  const ctx: SubstitutionContext = {
    params: (input.run.params ?? {}) as Record<string, ParamValue>,
    taskResults,
  };
  return when.map((w) => ({
    input: resolved(w.input!, ctx),
    operator: w.operator,
    values: (w.values ?? []).map((v) => resolved(v, ctx)),
  }));
}

function status(input: ExportInput): Json {
  const { run, taskRuns, spec } = input;
  const at = run.finishedAt ?? run.startedAt ?? run.queuedAt;
  const children = taskRuns.filter((t) => t.status !== 'skipped' && t.status !== 'pending');
  const skipped = new Map<string, string>();
  for (const t of taskRuns)
    if (t.status === 'skipped' && !skipped.has(t.pipelineTask))
      skipped.set(t.pipelineTask, skippingReason(t.reason, run));
  const finallyStarts = taskRuns
    .filter((t) => t.isFinally && t.startedAt)
    .map((t) => t.startedAt!.getTime())
    .sort((a, b) => a - b);
  const results = (run.results ?? null) as Record<string, unknown> | null;
  return {
    conditions: [{ type: 'Succeeded', ...condition(run, taskRuns), lastTransitionTime: time(at) }],
    ...(run.startedAt ? { startTime: time(run.startedAt) } : {}),
    ...(run.finishedAt ? { completionTime: time(run.finishedAt) } : {}),
    ...(finallyStarts.length > 0 ? { finallyStartTime: time(new Date(finallyStarts[0]!)) } : {}),
    ...(children.length > 0
      ? {
          childReferences: children.map((t) => ({
            apiVersion: TEKTON_API_VERSION,
            kind: 'TaskRun',
            name: childName(run.name, `-${t.name}`),
            pipelineTaskName: t.pipelineTask,
          })),
        }
      : {}),
    ...(skipped.size > 0
      ? {
          skippedTasks: [...skipped].map(([name, reason]) => {
            const when = reason === WHEN_SKIP ? whenExpressionsOf(input, name) : undefined;
            return { name, reason, ...(when ? { whenExpressions: when } : {}) };
          }),
        }
      : {}),
    ...(results && Object.keys(results).length > 0 ? { results: declaredOrder(results, spec?.results) } : {}),
    ...(spec ? { pipelineSpec: spec } : {}),
  };
}

function sectionsWritten(record: Partial<RunDocumentRecord>): Record<string, string> {
  const { tasks, finally: fin } = record.timeouts ?? {};
  return { ...(tasks !== undefined ? { tasks } : {}), ...(fin !== undefined ? { finally: fin } : {}) };
}

/** The run as a Tekton v1 PipelineRun with its status. */
export function exportPipelineRun(input: ExportInput): Json {
  const { run, pipeline, spec } = input;
  const record = ((run.trigger as { document?: RunDocumentRecord } | null)?.document ??
    {}) as Partial<RunDocumentRecord>;
  const params = declaredOrder((run.params ?? {}) as Record<string, unknown>, spec?.params);
  const bindings = (run.workspaceBindings ?? []) as Json[];
  return {
    apiVersion: TEKTON_API_VERSION,
    kind: 'PipelineRun',
    metadata: {
      name: run.name,
      uid: run.id,
      creationTimestamp: time(run.queuedAt),
      // Tekton labels a run with its pipeline's name (an embedded spec's: the run's)
      labels: { ...record.labels, 'tekton.dev/pipeline': pipeline.name },
      ...(record.annotations ? { annotations: record.annotations } : {}),
    },
    spec: {
      ...(pipeline.adhoc && spec ? { pipelineSpec: spec } : { pipelineRef: { name: pipeline.name } }),
      ...(params.length > 0 ? { params } : {}),
      ...(bindings.length > 0 ? { workspaces: bindings } : {}),
      // the sections as written (the run's own deadline as it ran)
      timeouts: {
        // "0" (no timeout) as written, which Tekton requires beside a section of "0"
        pipeline: record.timeouts?.pipeline === '0' ? '0' : formatDuration(run.timeoutMs),
        ...sectionsWritten(record),
      },
      taskRunTemplate: {
        serviceAccountName: record.serviceAccountName ?? DEFAULT_SERVICE_ACCOUNT,
        ...(record.podTemplate ? { podTemplate: record.podTemplate } : {}),
      },
      ...(record.taskRunSpecs ? { taskRunSpecs: record.taskRunSpecs } : {}),
      ...(run.cancelRequestedAt ? { status: 'Cancelled' } : {}),
    },
    status: status(input),
  };
}
