import { describe, expect, it } from 'vitest';
import { pipelineRunEnd, rowName, stepStates, taskRunEnd } from './tekton-status.js';

/** The successful TaskRun status of tektoncd/pipeline docs/taskruns.md, "Monitoring execution status". */
const TASK_RUN_STATUS = {
  completionTime: '2019-08-12T18:22:57Z',
  conditions: [
    {
      lastTransitionTime: '2019-08-12T18:22:57Z',
      message: 'All Steps have completed executing',
      reason: 'Succeeded',
      status: 'True',
      type: 'Succeeded',
    },
  ],
  podName: 'status-taskrun-pod',
  startTime: '2019-08-12T18:22:51Z',
  steps: [
    {
      container: 'step-hello',
      imageID:
        'docker-pullable://busybox@sha256:895ab622e92e18d6b461d671081757af7dbaa3b00e3e28e12505af7817f73649',
      name: 'hello',
      terminationReason: 'Completed',
      terminated: {
        containerID: 'docker://d5a54f5bbb8e7a6fd3bc7761b78410403244cf4c9c5822087fb0209bf59e3621',
        exitCode: 0,
        finishedAt: '2019-08-12T18:22:56Z',
        reason: 'Completed',
        startedAt: '2019-08-12T18:22:54Z',
      },
    },
  ],
};

const pr = (status: string, reason: string, message = '') => ({
  status: {
    conditions: [{ type: 'Succeeded', status, reason, message }],
    completionTime: '2020-05-04T02:19:14Z',
  },
});

describe("Tekton's status read into Slipway's records", () => {
  it("reads the docs' successful TaskRun: succeeded, its step ended with exit code 0 at Tekton's times", () => {
    expect(taskRunEnd({ status: TASK_RUN_STATUS })).toEqual({ status: 'succeeded', reason: '', results: {} });
    expect(stepStates({ status: TASK_RUN_STATUS })).toEqual([
      {
        name: 'hello',
        container: 'step-hello',
        started: true,
        end: {
          name: 'hello',
          status: 'succeeded',
          exitCode: 0,
          reason: '',
          startedAt: new Date('2019-08-12T18:22:54Z'),
          finishedAt: new Date('2019-08-12T18:22:56Z'),
        },
      },
    ]);
  });

  it("reads each row of the docs' PipelineRun status table", () => {
    const t = 'the run exceeded its timeout of 1h';
    expect(pipelineRunEnd(pr('Unknown', 'Started'), t)).toBeNull();
    expect(pipelineRunEnd(pr('Unknown', 'Running'), t)).toBeNull();
    expect(pipelineRunEnd(pr('Unknown', 'Cancelled'), t)).toBeNull();
    expect(pipelineRunEnd(pr('True', 'Succeeded', 'Tasks Completed: 4, Skipped: 0'), t)).toMatchObject({
      status: 'succeeded',
    });
    expect(pipelineRunEnd(pr('True', 'Completed'), t)).toMatchObject({ status: 'succeeded' });
    expect(pipelineRunEnd(pr('False', 'Failed', 'Tasks Completed: 1 (Failed: 1)'), t)).toMatchObject({
      status: 'failed',
      reason: 'Failed: Tasks Completed: 1 (Failed: 1)',
    });
    expect(
      pipelineRunEnd(
        pr('False', 'ParameterMissing', '[User error] pipelineRun missing parameters: [pl-param-x]'),
        t,
      ),
    ).toMatchObject({
      status: 'failed',
      reason: 'ParameterMissing: [User error] pipelineRun missing parameters: [pl-param-x]',
    });
    expect(pipelineRunEnd(pr('False', 'Cancelled'), t)).toMatchObject({
      status: 'cancelled',
      reason: 'Cancelled',
    });
    expect(pipelineRunEnd(pr('False', 'PipelineRunTimeout'), t)).toMatchObject({
      status: 'timed_out',
      reason: t,
    });
  });

  it('reads the TaskRun table: a False without completionTime is not an end yet; cancel and timeout reasons', () => {
    const tr = (status: string, reason: string, done = true) => ({
      status: {
        conditions: [{ type: 'Succeeded', status, reason }],
        ...(done ? { completionTime: 'x' } : {}),
      },
    });
    expect(taskRunEnd(tr('False', 'some transient error', false))).toBeNull();
    expect(taskRunEnd(tr('Unknown', 'Pending'))).toBeNull();
    expect(taskRunEnd(tr('False', 'TaskRunCancelled'))).toMatchObject({ status: 'cancelled' });
    expect(taskRunEnd(tr('False', 'TaskRunTimeout'))).toMatchObject({ status: 'timed_out' });
    expect(taskRunEnd(tr('False', 'StepFailed'))).toMatchObject({ status: 'failed', reason: 'StepFailed' });
  });

  it('keeps array and object results as arrays and objects, as the engine stores them', () => {
    const status = {
      ...TASK_RUN_STATUS,
      results: [
        { name: 'digest', type: 'string', value: 'sha256:abc' },
        { name: 'images', type: 'array', value: ['a', 'b'] },
        { name: 'image', type: 'object', value: { url: 'x', digest: 'y' } },
      ],
    };
    expect(taskRunEnd({ status })!.results).toEqual({
      digest: 'sha256:abc',
      images: ['a', 'b'],
      image: { url: 'x', digest: 'y' },
    });
  });

  it("names task run rows from the docs' TaskRun naming table", () => {
    expect(rowName('pipeline-run-task1', 'pipeline-run', 'task1')).toBe('task1');
    expect(rowName('pipeline-run-task1-2', 'pipeline-run', 'task1')).toBe('task1-2');
    const long = 'task2-0123456789-0123456789-0123456789-0123456789-0123456789';
    expect(
      rowName('pipeline-runee4a397d6eab67777d4e6f9991cd19e6-task2-0123456789-0', 'pipeline-run', long),
    ).toBe(long);
  });
});
