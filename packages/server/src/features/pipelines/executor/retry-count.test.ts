import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalExecutor } from './local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from './local-executor.test-helper.js';

// docs/variables.md: $(context.task.retry-count) is the number of retries before this attempt
describe('LocalExecutor: $(context.task.retry-count) per attempt', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  it('each attempt sees its own retry count', async () => {
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch') });
    const io = recordingIo();
    const run = taskRun(
      dir,
      [
        step('s', {
          script: 'echo "attempt $(context.task.retry-count)"\n[ $(context.task.retry-count) = 2 ]',
        }),
      ],
      { retries: 2 },
    );
    const outcome = await executor.runTask(run, io, neverAborted());
    expect(outcome).toMatchObject({ status: 'succeeded', attempts: 3 });
    expect(io.texts('stdout')).toEqual(['attempt 0', 'attempt 1', 'attempt 2']);
  });
});
