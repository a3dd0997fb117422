import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskLog } from '../task-log.js';
import type { ResolvedTaskRun } from '../types.js';

/** The walk stops counting after this many entries (files, directories, links). */
export const SIZE_WALK_LIMIT = 100_000;

/** Bytes under `dir` (not following links), counting at most `limit` entries. */
export async function directorySize(
  dir: string,
  limit = SIZE_WALK_LIMIT,
): Promise<{ bytes: number; entries: number; truncated: boolean }> {
  let bytes = 0;
  let entries = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let names: string[];
    try {
      names = await readdir(current);
    } catch {
      continue;
    }
    for (const name of names) {
      if (entries >= limit) return { bytes, entries, truncated: true };
      entries += 1;
      const path = join(current, name);
      const stat = await lstat(path).catch(() => undefined);
      if (!stat) continue;
      if (stat.isDirectory()) pending.push(path);
      else bytes += stat.size;
    }
  }
  return { bytes, entries, truncated: false };
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * After a task: one system line per workspace its steps could write, with what it holds now
 * (`workspace "source" holds 12.3 MiB`), under the task's last step. Never throws.
 */
export async function logWorkspaceSizes(run: ResolvedTaskRun, log: TaskLog): Promise<void> {
  const step = run.steps.at(-1)?.name ?? '';
  const writable = run.mounts
    ? run.mounts.filter((m) => !m.readOnly).map((m) => ({ name: m.name, hostPath: m.hostPath }))
    : Object.entries(run.workspaces).map(([name, hostPath]) => ({ name, hostPath }));
  const seen = new Set<string>();
  for (const { name, hostPath } of writable) {
    if (seen.has(hostPath)) continue;
    seen.add(hostPath);
    try {
      const size = await directorySize(hostPath);
      log.system(
        step,
        size.truncated
          ? `workspace "${name}" holds at least ${formatBytes(size.bytes)} (counting stopped after ${SIZE_WALK_LIMIT.toLocaleString('en')} entries)`
          : `workspace "${name}" holds ${formatBytes(size.bytes)}`,
      );
    } catch {
      // a size is a courtesy: never a reason for a task to fail
    }
  }
}
