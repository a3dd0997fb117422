import { decodeChunk } from './chunk-codec.js';
import type { LogSearchMatch } from '@slipway/contracts';
import type { TaskRunRow } from '../task-store.js';
import type { LogStore } from './log-store.js';

/** Which lines: one task (by its name or, for a matrix, its pipeline task) and one step, or all. */
export interface LogSelection {
  task?: string | undefined;
  step?: string | undefined;
}

// CSI sequences, OSC sequences (ended by BEL or ST) and the two-character escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

export function selectTaskRuns(taskRuns: TaskRunRow[], task: string | undefined): TaskRunRow[] {
  return task ? taskRuns.filter((t) => t.name === task || t.pipelineTask === task) : taskRuns;
}

/**
 * The selected lines as text, task by task in the order the tasks started, read a page of chunks
 * at a time. Without a task, each line is prefixed with `[task/step] `. ANSI escapes are kept.
 */
export async function* logText(
  logs: LogStore,
  taskRuns: TaskRunRow[],
  selection: LogSelection,
): AsyncGenerator<{ line: string; task: string; step: string; number: number; text: string }> {
  for (const taskRun of taskRuns) {
    let number = 0;
    for await (const chunk of logs.chunksOf([taskRun.id]))
      for (const line of decodeChunk(chunk.columns)) {
        number += 1;
        if (selection.step && line.step !== selection.step) continue;
        yield {
          line: selection.task ? line.text : `[${taskRun.name}/${line.step}] ${line.text}`,
          task: taskRun.name,
          step: line.step,
          number,
          text: line.text,
        };
      }
  }
}

/** Lines whose text (without ANSI escapes) contains `q`, case-insensitive: one page and the total. */
export async function searchLog(
  logs: LogStore,
  taskRuns: TaskRunRow[],
  selection: LogSelection,
  q: string,
  page: { start: number; end: number },
): Promise<{ matches: LogSearchMatch[]; total: number }> {
  const needle = q.toLowerCase();
  const matches: LogSearchMatch[] = [];
  let total = 0;
  for await (const l of logText(logs, taskRuns, selection)) {
    if (!stripAnsi(l.text).toLowerCase().includes(needle)) continue;
    if (total >= page.start && total < page.end)
      matches.push({ task: l.task, step: l.step, line: l.number, text: l.text });
    total += 1;
  }
  return { matches, total };
}
