import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDefinition } from '../definition/parse-document.js';
import type { Task } from '../definition/model.js';
import { resolveTaskRun } from '../definition/resolve-task-run.js';
import { LocalExecutor } from './local-executor.js';
import { neverAborted, recordingIo, step, taskRun, tempDir } from './local-executor.test-helper.js';

describe('LocalExecutor: Tekton variables decided when a step runs', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(() => cleanup());

  // docs/variables.md: $(context.task.retry-count) is the number of retries before this attempt
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

  // docs/tasks.md "Specifying onError for a step", with onError from a param as in
  // examples/v1/pipelineruns/ignore-step-error.yaml: the task goes on, the step keeps its exit code
  it('onError from a param lets the task go on and keeps the exit code on the step', async () => {
    const parsed = parseDefinition(`apiVersion: tekton.dev/v1
kind: Task
metadata: { name: unit-tests }
spec:
  params: [{ name: CONTINUE, default: stopAndFail }]
  steps:
    - name: ignore-unit-test-failure
      image: alpine
      onError: $(params.CONTINUE)
      script: exit 3
    - name: after
      image: alpine
      script: echo still here
`);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const task = parsed.documents[0] as Task;
    const resolve = (value: string) =>
      resolveTaskRun(
        { name: 't', taskRef: { name: 'unit-tests' }, params: [{ name: 'CONTINUE', value }] },
        task,
        {
          resultsDir: join(dir, 'results'),
        },
      );
    const executor = new LocalExecutor({ scratchRoot: join(dir, 'scratch') });
    const goesOn = await executor.runTask(resolve('continue'), recordingIo(), neverAborted());
    expect(goesOn.status).toBe('succeeded');
    expect(goesOn.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
      ['ignore-unit-test-failure', 'failed', 3],
      ['after', 'succeeded', 0],
    ]);
    const stops = await executor.runTask(resolve('stopAndFail'), recordingIo(), neverAborted());
    expect(stops.status).toBe('failed');
    expect(stops.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
  });
});
