import type { TaskRunView } from '@slipway/contracts';
import type { GraphEdge } from './run-graph';

/**
 * The timeline strip: each pipeline task's start and end on one time axis shared by the whole
 * run, and the critical path (the chain of tasks that decided when the run ended).
 */
export interface TimelineBar {
  task: string;
  isFinally: boolean;
  status: string;
  startMs: number;
  endMs: number;
  /** still going: its end is "now" */
  running: boolean;
  /** where the bar starts and how wide it is, as fractions of the axis (0..1) */
  left: number;
  width: number;
}
export interface Timeline {
  startMs: number;
  endMs: number;
  bars: TimelineBar[];
}

/** The bars of the tasks that have started, in start order, on an axis from first start to last end. */
export function timelineOf(taskRuns: TaskRunView[], now: number): Timeline {
  const spans = new Map<string, { start: number; end: number; running: boolean; run: TaskRunView }>();
  for (const tr of taskRuns) {
    if (!tr.startedAt) continue;
    const start = Date.parse(tr.startedAt);
    const end = tr.finishedAt ? Date.parse(tr.finishedAt) : Math.max(now, start);
    const had = spans.get(tr.pipelineTask);
    spans.set(tr.pipelineTask, {
      start: had ? Math.min(had.start, start) : start,
      end: had ? Math.max(had.end, end) : end,
      running: (had?.running ?? false) || !tr.finishedAt,
      run: had?.run ?? tr,
    });
  }
  if (spans.size === 0) return { startMs: 0, endMs: 0, bars: [] };
  const startMs = Math.min(...[...spans.values()].map((s) => s.start));
  const endMs = Math.max(...[...spans.values()].map((s) => s.end));
  const total = Math.max(endMs - startMs, 1);
  const bars = [...spans.entries()]
    .map(([task, s]) => ({
      task,
      isFinally: s.run.isFinally,
      status: s.run.status,
      startMs: s.start,
      endMs: s.end,
      running: s.running,
      left: (s.start - startMs) / total,
      width: (s.end - s.start) / total,
    }))
    .sort((a, b) => a.startMs - b.startMs || a.task.localeCompare(b.task));
  return { startMs, endMs, bars };
}

/**
 * The critical path: from the task that ended last, step back each time to the predecessor
 * (by the graph's edges; for a `finally` task, every other task) that ended last, until a task
 * has no started predecessor. Returned first to last.
 */
export function criticalPath(timeline: Timeline, edges: GraphEdge[]): string[] {
  const bars = new Map(timeline.bars.map((b) => [b.task, b]));
  if (bars.size === 0) return [];
  const preds = (task: string): string[] => {
    const bar = bars.get(task)!;
    if (bar.isFinally) return timeline.bars.filter((b) => !b.isFinally).map((b) => b.task);
    return edges.filter((e) => e.target === task).map((e) => e.source);
  };
  const latest = (names: string[]) =>
    names
      .map((n) => bars.get(n))
      .filter((b): b is TimelineBar => Boolean(b))
      .reduce<TimelineBar | undefined>((best, b) => (!best || b.endMs > best.endMs ? b : best), undefined);
  const path: string[] = [];
  let at = latest([...bars.keys()]);
  while (at && !path.includes(at.task)) {
    path.unshift(at.task);
    at = latest(preds(at.task));
  }
  return path;
}
