import { describe, expect, it } from 'vitest';
import type { DefinitionIssue } from '../pipelines/definition/index.js';
import { readTimeouts, sectionTimeouts, taskRunSpecTimeoutIssues } from './run-document-timeouts.js';

/* tektoncd/pipeline docs/pipelineruns.md, "Configuring a failure timeout": its examples. */

function read(timeouts: Record<string, string>) {
  const issues: DefinitionIssue[] = [];
  const out = readTimeouts(timeouts, issues);
  return { ...out, issues };
}

describe("a PipelineRun's timeouts, as Tekton validates and computes them", () => {
  it.each([
    [
      'the example: pipeline 0h0m60s, tasks 0h0m40s, finally 0h0m20s',
      { pipeline: '0h0m60s', tasks: '0h0m40s', finally: '0h0m20s' },
      { tasksMs: 40_000, finallyMs: 20_000 },
    ],
    // "reserve a portion of it for tasks": finally gets what is left
    [
      'Combination 1: pipeline 0h4m0s, tasks 0h1m0s',
      { pipeline: '0h4m0s', tasks: '0h1m0s' },
      { tasksMs: 60_000, finallyMs: 180_000 },
    ],
    // "reserve a portion of it for finally": the tasks get what is left
    [
      'Combination 2: pipeline 0h4m0s, finally 0h3m0s',
      { pipeline: '0h4m0s', finally: '0h3m0s' },
      { tasksMs: 60_000, finallyMs: 180_000 },
    ],
    [
      'Combination 3: pipeline "0", tasks 0h3m0s',
      { pipeline: '0', tasks: '0h3m0s' },
      { tasksMs: 180_000, finallyMs: undefined },
    ],
    [
      'Combination 4: pipeline "0", finally 0h3m0s',
      { pipeline: '0', finally: '0h3m0s' },
      { tasksMs: undefined, finallyMs: 180_000 },
    ],
    [
      'tasks "0" beside pipeline "0" (no deadline for either)',
      { pipeline: '0', tasks: '0' },
      { tasksMs: undefined, finallyMs: undefined },
    ],
    [
      'tasks alone, within the default timeout',
      { tasks: '30m' },
      { tasksMs: 1_800_000, finallyMs: undefined },
    ],
  ])('takes %s', (_what, timeouts, sections) => {
    const out = read(timeouts);
    expect(out.issues).toEqual([]);
    expect(out.written).toEqual(timeouts);
    expect(sectionTimeouts(out.written)).toEqual(sections);
  });

  it('keeps the run\'s own deadline from timeouts.pipeline ("0" is the longest run allowed)', () => {
    expect(read({ pipeline: '0h0m60s', tasks: '0h0m40s' }).runMs).toBe(60_000);
    expect(read({ pipeline: '0', tasks: '3m' }).runMs).toBe(168 * 3_600_000);
    expect(read({ tasks: '3m' }).runMs).toBeUndefined();
  });

  it.each([
    [{ pipeline: '1m', tasks: '2m' }, 'spec.timeouts.tasks', '2m0s should be <= pipeline duration'],
    [{ pipeline: '1m', finally: '90s' }, 'spec.timeouts.finally', '1m30s should be <= pipeline duration'],
    [{ finally: '2h' }, 'spec.timeouts.finally', '2h0m0s should be <= default timeout duration'],
    [{ pipeline: '1h', tasks: '0' }, 'spec.timeouts.tasks', '0s (no timeout) should be <= pipeline duration'],
    [
      { pipeline: '0h0m60s', tasks: '0h0m40s', finally: '0h0m30s' },
      'spec.timeouts.finally',
      '40s + 30s should be <= pipeline duration',
    ],
    [{ pipeline: '1h', tasks: 'soon' }, 'spec.timeouts.tasks', 'not a duration'],
    [{ pipeline: '0', tasks: '200h' }, 'spec.timeouts.tasks', 'at most 168h'],
  ])('refuses %j at %s, as Tekton words it', (timeouts, path, message) => {
    const { issues } = read(timeouts);
    expect(issues).toContainEqual(
      expect.objectContaining({ path, message: expect.stringContaining(message) }),
    );
  });

  it("names both sections when together they exceed the pipeline's timeout", () => {
    const { issues } = read({ pipeline: '1m', tasks: '40s', finally: '30s' });
    expect(issues.map((i) => i.path)).toEqual(['spec.timeouts.tasks', 'spec.timeouts.finally']);
  });

  it('holds a taskRunSpec timeout to timeouts.tasks, else timeouts.pipeline, else the default, as Tekton does', () => {
    const at = 'spec.taskRunSpecs[0].timeout';
    // docs/pipelineruns.md "Overriding Individual Task Timeouts": 5m within a pipeline of 10m
    expect(taskRunSpecTimeoutIssues('5m', { pipeline: '10m' }, at)).toEqual([]);
    expect(taskRunSpecTimeoutIssues('0', { pipeline: '10m' }, at)).toEqual([]);
    expect(taskRunSpecTimeoutIssues('12m', { pipeline: '10m' }, at)).toEqual([
      { path: at, rule: 'timeouts', message: '12m0s should be <= pipeline duration 10m0s' },
    ]);
    expect(taskRunSpecTimeoutIssues('5m', { pipeline: '10m', tasks: '3m' }, at)[0]?.message).toBe(
      '5m0s should be <= pipeline tasks duration 3m0s',
    );
    expect(taskRunSpecTimeoutIssues('2h', {}, at)[0]?.message).toBe(
      '2h0m0s should be <= default pipeline duration 1h0m0s',
    );
    expect(taskRunSpecTimeoutIssues('2h', { pipeline: '0' }, at)).toEqual([]);
  });
});
