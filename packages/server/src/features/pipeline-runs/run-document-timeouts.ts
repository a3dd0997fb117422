import { PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS } from '@slipway/contracts';
import { formatDuration, parseDuration, type DefinitionIssue } from '../pipelines/definition/index.js';
import { isObject, timeoutMs, unknownFields } from './run-document-rules.js';

/*
 * A PipelineRun's `spec.timeouts` (tektoncd/pipeline docs/pipelineruns.md, "Configuring a failure
 * timeout"): `pipeline` bounds the whole run, `tasks` the time from the run's start until its
 * non-finally tasks are done, `finally` the time from the first finally task's start. They are
 * checked as Tekton's webhook checks them (pipelinerun_validation.go) and kept, as written, with
 * the run's document (trigger.document.timeouts), where the engine, the export and the Tekton
 * hand-off read them.
 */

const DEFAULT_MS = PIPELINE_RUN_TIMEOUT_DEFAULT_HOURS * 3_600_000;

/** What a run document's `spec.timeouts` gives the run. */
export interface ReadTimeouts {
  /** the run's own deadline (`pipeline`; "0" is the longest run allowed) */
  runMs: number | undefined;
  /** the fields as written, for the run's record */
  written: Record<string, string>;
}

/** `spec.timeouts`: each a duration, and `tasks` + `finally` within `pipeline`, as Tekton validates them. */
export function readTimeouts(raw: unknown, issues: DefinitionIssue[]): ReadTimeouts {
  const timeouts = isObject(raw) ? raw : {};
  issues.push(...unknownFields(timeouts, ['pipeline', 'tasks', 'finally'], 'spec.timeouts', 'PipelineRun'));
  const before = issues.length;
  const runMs = timeoutMs(timeouts.pipeline, 'spec.timeouts.pipeline', issues);
  const sections: Partial<Record<'tasks' | 'finally', number>> = {};
  for (const part of ['tasks', 'finally'] as const) {
    if (timeouts[part] === undefined) continue;
    // checked for form and for the 168 h limit as `pipeline` is; the raw value is kept ("0" is none)
    const ms = timeoutMs(timeouts[part], `spec.timeouts.${part}`, issues);
    if (ms !== undefined) sections[part] = parseDuration(String(timeouts[part]))!;
  }
  const written = Object.fromEntries(
    (['pipeline', 'tasks', 'finally'] as const)
      .filter((k) => timeouts[k] !== undefined)
      .map((k) => [k, String(timeouts[k])]),
  );
  if (issues.length > before) return { runMs, written };
  // Tekton: within the pipeline's timeout, or the default one when `pipeline` is not given
  const given = timeouts.pipeline !== undefined;
  const limit = given ? parseDuration(String(timeouts.pipeline))! : DEFAULT_MS;
  const rule = given ? 'should be <= pipeline duration' : 'should be <= default timeout duration';
  for (const part of ['tasks', 'finally'] as const) {
    const ms = sections[part];
    if (ms === undefined) continue;
    if ((ms > limit && limit !== 0) || (ms === 0 && limit !== 0))
      issues.push({
        path: `spec.timeouts.${part}`,
        rule: 'timeouts',
        message: `${formatDuration(ms)}${ms === 0 ? ' (no timeout)' : ''} ${rule}${ms === 0 ? ': a section without a timeout needs timeouts.pipeline "0" too' : ''}`,
      });
  }
  if (
    sections.tasks !== undefined &&
    sections.finally !== undefined &&
    sections.tasks + sections.finally > limit
  )
    for (const part of ['tasks', 'finally'])
      issues.push({
        path: `spec.timeouts.${part}`,
        rule: 'timeouts',
        message: `${formatDuration(sections.tasks)} + ${formatDuration(sections.finally)} ${rule}`,
      });
  return { runMs, written };
}

/**
 * A taskRunSpec's `timeout` within the PipelineRun's: `timeouts.tasks`, else `timeouts.pipeline`,
 * else the default, as Tekton's validateTaskRunSpecTimeout checks it ("0" is within any).
 */
export function taskRunSpecTimeoutIssues(
  timeout: unknown,
  written: Record<string, string>,
  path: string,
): DefinitionIssue[] {
  const ms = timeout === undefined ? null : parseDuration(String(timeout));
  if (ms === null) return [];
  const [limit, source] =
    written.tasks !== undefined
      ? [parseDuration(written.tasks), 'pipeline tasks duration']
      : written.pipeline !== undefined
        ? [parseDuration(written.pipeline), 'pipeline duration']
        : [DEFAULT_MS, 'default pipeline duration'];
  if (limit === null || limit === 0 || ms <= limit) return [];
  return [
    {
      path,
      rule: 'timeouts',
      message: `${formatDuration(ms)} should be <= ${source} ${formatDuration(limit)}`,
    },
  ];
}

/** The deadlines of a run's sections in ms (undefined: none), as Tekton computes them. */
export interface SectionTimeouts {
  tasksMs: number | undefined;
  finallyMs: number | undefined;
}

/**
 * Tekton's TasksTimeout and FinallyTimeout: the one written, else the pipeline's less the other
 * section's when both of those are written and neither is "0"; "0" is no deadline.
 */
export function sectionTimeouts(written: Record<string, string> | undefined): SectionTimeouts {
  const ms = (key: string) => {
    const text = written?.[key];
    return text === undefined ? undefined : (parseDuration(text) ?? undefined);
  };
  const [pipeline, tasks, finallyMs] = [ms('pipeline'), ms('tasks'), ms('finally')];
  const section = (own: number | undefined, other: number | undefined) => {
    if (own !== undefined) return own === 0 ? undefined : own;
    if (pipeline === undefined || other === undefined || pipeline === 0 || other === 0) return undefined;
    return Math.max(0, pipeline - other);
  };
  return { tasksMs: section(tasks, finallyMs), finallyMs: section(finallyMs, tasks) };
}

/** The run's reason when its tasks outlast `timeouts.tasks` (the export reads it back). */
export const TASKS_TIMEOUT_REASON = "the run's tasks exceeded timeouts.tasks of ";

export function tasksTimeoutReason(ms: number): string {
  return `${TASKS_TIMEOUT_REASON}${formatDuration(ms)}`;
}

/** A task run cancelled by a section's deadline: Tekton's TaskRunCancelledByPipelineTimeoutMsg. */
export const SECTION_TIMEOUT_TASK_REASON =
  'TaskRun cancelled as the PipelineRun it belongs to has timed out.';
