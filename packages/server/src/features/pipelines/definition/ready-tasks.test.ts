import { describe, expect, it } from 'vitest';
import { buildGraph } from './graph.js';
import { pipelineOutcome } from './pipeline-outcome.js';
import { readyTasks } from './ready-tasks.js';
import { buildAndDeploy, inlinePipeline } from './test-fixtures.js';

const graph = () => buildGraph(buildAndDeploy());
const params = {
  'repo-url': 'https://github.com/acme/app',
  revision: 'main',
  image: 'registry/app',
  deploy: 'true',
};

describe('readyTasks', () => {
  it('starts the roots first', () => {
    expect(readyTasks(graph(), {}, { context: { params } })).toEqual({
      start: ['fetch-source'],
      skip: [],
      errors: [],
    });
  });

  it('starts every task whose parents are done, in parallel', () => {
    const decision = readyTasks(graph(), { 'fetch-source': 'succeeded' }, { context: { params } });
    expect(decision.start).toEqual(['build', 'test']);
  });

  it('waits for every parent, including result references', () => {
    const states = { 'fetch-source': 'succeeded', build: 'running', test: 'succeeded' } as const;
    expect(readyTasks(graph(), states, { context: { params } }).start).toEqual([]);
  });

  it('skips a task whose when is false, with the reason', () => {
    const states = { 'fetch-source': 'succeeded', build: 'succeeded', test: 'succeeded' } as const;
    const decision = readyTasks(graph(), states, { context: { params: { ...params, deploy: 'false' } } });
    expect(decision.skip).toEqual([
      {
        name: 'deploy',
        cause: 'when',
        reason: 'when expression false: $(params.deploy) = "false" is not in ["true"]',
      },
    ]);
    // Every task is done now, so the finally task starts in the same step.
    expect(decision.start).toEqual(['notify']);
  });

  it('lets runAfter-only dependants of a when-skipped task run, but not result consumers', () => {
    const pipeline = inlinePipeline([
      { name: 'gate' },
      { name: 'after', runAfter: ['gate'] },
      { name: 'reader', params: [['in', '$(tasks.gate.results.out)']] },
      { name: 'downstream', runAfter: ['reader'] },
    ]);
    pipeline.spec.tasks[0]!.when = [{ input: 'a', operator: 'in', values: ['b'] }];
    const decision = readyTasks(buildGraph(pipeline), {});
    expect(decision.start).toEqual(['after']);
    expect(decision.skip).toEqual([
      { name: 'gate', cause: 'when', reason: 'when expression false: "a" is not in ["b"]' },
      {
        name: 'reader',
        cause: 'missingResults',
        reason: 'results of task "gate" are missing: it was skipped',
      },
      { name: 'downstream', cause: 'parentSkipped', reason: 'parent task "reader" was skipped' },
    ]);
  });

  it('stops after a failure: dependants skip naming the failed parent, others as stopping', () => {
    const pipeline = inlinePipeline([
      { name: 'build' },
      { name: 'lint' },
      { name: 'push', runAfter: ['build'] },
      { name: 'release', runAfter: ['push'] },
      { name: 'docs', runAfter: ['lint'] },
    ]);
    const decision = readyTasks(buildGraph(pipeline), { build: 'failed', lint: 'succeeded' });
    expect(decision.start).toEqual([]);
    expect(decision.skip).toEqual([
      { name: 'push', cause: 'parentFailed', reason: 'parent task "build" failed' },
      { name: 'release', cause: 'parentFailed', reason: 'parent task "build" failed' },
      { name: 'docs', cause: 'stopping', reason: 'pipeline is stopping: task "build" failed' },
    ]);
  });

  it('runs finally once every task is done, with $(tasks.status) available to its when', () => {
    const g = graph();
    g.nodes.find((n) => n.name === 'notify')!.task.when = [
      { input: '$(tasks.status)', operator: 'in', values: ['Failed'] },
    ];
    const states = {
      'fetch-source': 'succeeded',
      build: 'failed',
      test: 'succeeded',
      deploy: 'skipped',
    } as const;
    expect(readyTasks(g, states, { context: { params } }).start).toEqual(['notify']);
    const green = {
      'fetch-source': 'succeeded',
      build: 'succeeded',
      test: 'succeeded',
      deploy: 'succeeded',
    } as const;
    expect(readyTasks(g, green, { context: { params } }).skip[0]).toMatchObject({
      name: 'notify',
      cause: 'when',
      reason: 'when expression false: $(tasks.status) = "Succeeded" is not in ["Failed"]',
    });
  });

  it('does not start finally while a task still runs', () => {
    const states = { 'fetch-source': 'succeeded', build: 'failed', test: 'running' } as const;
    const decision = readyTasks(graph(), states, { context: { params } });
    expect(decision.start).toEqual([]);
    expect(decision.skip.map((s) => s.name)).toEqual(['deploy']);
  });

  it('skips a finally task whose results are missing', () => {
    const pipeline = inlinePipeline([{ name: 'a' }]);
    pipeline.spec.finally = [
      {
        name: 'f',
        params: [{ name: 'in', value: '$(tasks.a.results.out)' }],
        taskSpec: pipeline.spec.tasks[0]!.taskSpec,
      },
    ];
    expect(readyTasks(buildGraph(pipeline), { a: 'failed' }).skip).toEqual([
      { name: 'f', cause: 'missingResults', reason: 'results of task "a" are missing: it did not succeed' },
    ]);
  });

  it('on a timeout starts nothing new but still runs finally', () => {
    const decision = readyTasks(
      graph(),
      { 'fetch-source': 'succeeded' },
      { stopReason: 'the run timed out', context: { params } },
    );
    expect(decision.skip.map((s) => [s.name, s.reason])).toEqual([
      ['build', 'pipeline is stopping: the run timed out'],
      ['test', 'pipeline is stopping: the run timed out'],
      ['deploy', 'pipeline is stopping: the run timed out'],
    ]);
    expect(decision.start).toEqual(['notify']);
  });

  it('reports a when that cannot be evaluated', () => {
    const states = { 'fetch-source': 'succeeded', build: 'succeeded', test: 'succeeded' } as const;
    const decision = readyTasks(graph(), states, { context: { params: {} } });
    expect(decision.errors).toEqual([{ name: 'deploy', message: '$(params.deploy): no param "deploy"' }]);
  });
});

describe('pipelineOutcome', () => {
  it('is Running while a task is incomplete', () => {
    expect(pipelineOutcome({ a: 'succeeded', b: 'running', c: 'pending' })).toMatchObject({
      status: 'Running',
      reason: 'Running',
      message: 'Tasks Completed: 1 (Failed: 0, Cancelled 0), Incomplete: 2, Skipped: 0',
    });
  });

  it('is Succeeded when all succeeded, Completed with skips, Failed with a failure', () => {
    expect(pipelineOutcome({ a: 'succeeded', b: 'succeeded' })).toMatchObject({
      status: 'Succeeded',
      reason: 'Succeeded',
    });
    expect(pipelineOutcome({ a: 'succeeded', b: { state: 'skipped', skipCause: 'when' } })).toMatchObject({
      status: 'Succeeded',
      reason: 'Completed',
      message: 'Tasks Completed: 1 (Failed: 0, Cancelled 0), Skipped: 1',
    });
    expect(pipelineOutcome({ a: 'failed', b: 'skipped', notify: 'succeeded' })).toMatchObject({
      status: 'Failed',
      reason: 'Failed',
      message: 'Tasks Completed: 2 (Failed: 1, Cancelled 0), Skipped: 1',
    });
  });

  it('fails a run stopped by a timeout or an abort once it is done', () => {
    expect(pipelineOutcome({ a: 'succeeded', b: 'running' }, { stoppedBy: 'timeout' }).reason).toBe(
      'Stopping',
    );
    expect(pipelineOutcome({ a: 'succeeded', b: 'skipped' }, { stoppedBy: 'timeout' })).toMatchObject({
      status: 'Failed',
      reason: 'PipelineRunTimeout',
    });
    expect(pipelineOutcome({ a: 'skipped' }, { stoppedBy: 'cancel' })).toMatchObject({
      status: 'Failed',
      reason: 'Cancelled',
      message: 'Tasks Completed: 0 (Failed: 0, Cancelled 1), Skipped: 1',
    });
  });
});
