import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogLine, StepState, TaskIo } from './executor.js';
import type { ResolvedStep, ResolvedTaskRun } from './types.js';

/** A per-test directory under the OS temp dir, removed by `cleanup`. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'slipway-exec-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function step(name: string, fields: Partial<ResolvedStep> = {}): ResolvedStep {
  return { name, image: 'alpine:3', env: {}, secretEnv: [], onError: 'stopAndFail', ...fields };
}

export function taskRun(
  dir: string,
  steps: ResolvedStep[],
  fields: Partial<ResolvedTaskRun> = {},
): ResolvedTaskRun {
  return {
    name: 'task',
    steps,
    resultsDir: join(dir, 'results'),
    results: [],
    workspaces: {},
    retries: 0,
    ...fields,
  };
}

export interface RecordingIo extends TaskIo {
  lines: LogLine[];
  states: Array<[string, StepState]>;
  /** Text of the lines of one stream (and optionally one step). */
  texts(stream: LogLine['stream'], stepName?: string): string[];
}

export function recordingIo(secrets: Record<string, string> = {}): RecordingIo {
  const lines: LogLine[] = [];
  const states: Array<[string, StepState]> = [];
  return {
    lines,
    states,
    onLine: (line) => lines.push(line),
    onStepState: (name, state) => states.push([name, state]),
    secretValue: async (secret, key) => {
      const value = secrets[`${secret}/${key}`];
      if (value === undefined) throw new Error(`no key "${key}" in secret "${secret}"`);
      return value;
    },
    texts: (stream, stepName) =>
      lines
        .filter((l) => l.stream === stream && (stepName === undefined || l.step === stepName))
        .map((l) => l.text),
  };
}

export const neverAborted = (): AbortSignal => new AbortController().signal;

/** True once `pid` no longer exists (ESRCH). */
export function reaped(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** True once `pid` has stopped running: gone, or a zombie waiting for init to reap it. */
export function dead(pid: number): boolean {
  if (reaped(pid)) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

export async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}
