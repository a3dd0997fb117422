import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Tekton's limit on a result (it travels in the 4 KiB termination message). */
export const MAX_RESULT_BYTES = 4096;

export interface ReadResults {
  results: Record<string, string>;
  /** Set when a result file is larger than the limit; the task then fails. */
  error?: string;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Reads `<dir>/<name>` for each declared result. One trailing newline is trimmed (what `echo`
 * adds). A missing file leaves the result absent without failing the task, as Tekton does; a
 * task that later references it fails there.
 */
export async function readResults(dir: string, names: string[]): Promise<ReadResults> {
  const results: Record<string, string> = {};
  for (const name of names) {
    const file = join(dir, name);
    try {
      const info = await stat(file);
      if (info.size > MAX_RESULT_BYTES + 1) return { results, error: tooLarge(name, info.size) };
      let value = await readFile(file);
      if (value.at(-1) === 0x0a) value = value.subarray(0, -1);
      if (value.length > MAX_RESULT_BYTES) return { results, error: tooLarge(name, value.length) };
      results[name] = value.toString('utf8');
    } catch (error) {
      if (!isMissing(error))
        return { results, error: `result "${name}" could not be read: ${String(error)}` };
    }
  }
  return { results };
}

function tooLarge(name: string, bytes: number): string {
  return `result "${name}" is ${bytes} bytes, more than the limit of ${MAX_RESULT_BYTES} bytes`;
}

/** Removes result files left by an earlier attempt, so a retry starts fresh. */
export async function clearResults(dir: string, names: string[]): Promise<void> {
  await Promise.all(names.map((name) => rm(join(dir, name), { force: true })));
}
