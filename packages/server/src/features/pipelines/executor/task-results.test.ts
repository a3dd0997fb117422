import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './local-executor.test-helper.js';
import { clearResults, MAX_RESULT_BYTES, readResults } from './task-results.js';

describe('readResults', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
    await mkdir(dir, { recursive: true });
  });
  afterEach(() => cleanup());

  it('reads each declared result and trims exactly one trailing newline', async () => {
    await writeFile(join(dir, 'digest'), 'sha256:abc\n');
    await writeFile(join(dir, 'lines'), 'a\nb\n\n');
    await writeFile(join(dir, 'undeclared'), 'x');
    expect(await readResults(dir, ['digest', 'lines'])).toEqual({
      results: { digest: 'sha256:abc', lines: 'a\nb\n' },
    });
  });

  it('leaves a result whose file is missing absent, without an error (as Tekton does)', async () => {
    await writeFile(join(dir, 'present'), 'yes');
    expect(await readResults(dir, ['present', 'missing'])).toEqual({ results: { present: 'yes' } });
  });

  it('refuses a result larger than 4 KiB, naming it and the limit', async () => {
    await writeFile(join(dir, 'big'), 'x'.repeat(MAX_RESULT_BYTES + 1));
    const read = await readResults(dir, ['big']);
    expect(read.error).toBe('result "big" is 4097 bytes, more than the limit of 4096 bytes');
  });

  it('accepts exactly 4 KiB plus the trailing newline', async () => {
    await writeFile(join(dir, 'edge'), `${'x'.repeat(MAX_RESULT_BYTES)}\n`);
    expect((await readResults(dir, ['edge'])).results.edge).toHaveLength(MAX_RESULT_BYTES);
  });

  it('clears the result files of an earlier attempt', async () => {
    await writeFile(join(dir, 'old'), 'stale');
    await clearResults(dir, ['old', 'never-written']);
    expect(await readResults(dir, ['old'])).toEqual({ results: {} });
  });
});
