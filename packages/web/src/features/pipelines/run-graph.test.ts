import { describe, expect, it } from 'vitest';
import type { TaskRunView } from '@slipway/contracts';
import { parseDocuments, pipelineSpecOf } from './definition-parse';
import { buildRunGraph, resultReferences, taskStatus } from './run-graph';
import { criticalPath, timelineOf } from './timeline';

const DEFINITION = `apiVersion: tekton.dev/v1
kind: Task
metadata: { name: shared }
spec:
  steps: [{ name: s, image: alpine, script: "true" }]
---
apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: build-and-ship   # a comment
spec:
  params:
    - name: repo
      type: string
      default: "https://example.com/r.git"
    - name: flags
      type: array
      default: [a, 'b']
  tasks:
    - name: clone
      taskRef: { name: shared }
    - name: build
      runAfter: [clone]
      params:
        - name: sha
          value: $(tasks.clone.results.commit)
    - name: lint
      runAfter:
        - clone
    - name: ship
      when:
        - input: "$(tasks.build.results.ok)"
          operator: in
          values: ["yes"]
      runAfter: [lint]
      taskSpec:
        steps:
          - name: go
            script: |
              echo one
              echo two
  finally:
    - name: notify
      params:
        - name: what
          value: $(tasks.ship.results.url)
`;

function tr(
  pipelineTask: string,
  status: string,
  startedAt: string | null,
  finishedAt: string | null,
  isFinally = false,
): TaskRunView {
  return {
    id: `tr-${pipelineTask}-${Math.random()}`,
    name: `run-${pipelineTask}`,
    pipelineTask,
    isFinally,
    status,
    reason: null,
    attempt: 1,
    results: null,
    startedAt,
    finishedAt,
    steps: [],
  };
}
const at = (s: number) => new Date(Date.UTC(2025, 4, 1, 10, 0, s)).toISOString();

describe('reading a definition', () => {
  it('reads YAML streams, flow style, quotes, comments and block scalars', () => {
    const docs = parseDocuments(DEFINITION);
    expect(docs).toHaveLength(2);
    const spec = pipelineSpecOf(DEFINITION)!;
    expect(spec.params).toEqual([
      { name: 'repo', type: 'string', default: 'https://example.com/r.git' },
      { name: 'flags', type: 'array', default: ['a', 'b'] },
    ]);
    const ship = (spec.tasks as Record<string, unknown>[])[3]!;
    expect(ship.taskSpec).toEqual({ steps: [{ name: 'go', script: 'echo one\necho two\n' }] });
    expect(((docs[1] as Record<string, unknown>).metadata as Record<string, unknown>).name).toBe(
      'build-and-ship',
    );
  });

  it('reads JSON, and gives null when there is no pipeline spec', () => {
    const json = JSON.stringify({ kind: 'Pipeline', spec: { tasks: [{ name: 'a' }] } });
    expect(pipelineSpecOf(json)).toEqual({ tasks: [{ name: 'a' }] });
    expect(pipelineSpecOf('just a string')).toBeNull();
  });
});

describe('the run graph', () => {
  it('has edges from runAfter and from result references, and keeps finally tasks apart', () => {
    const graph = buildRunGraph(pipelineSpecOf(DEFINITION), [tr('clone', 'succeeded', at(0), at(2))]);
    expect(graph.nodes.map((n) => [n.id, n.isFinally, n.status])).toEqual([
      ['clone', false, 'succeeded'],
      ['build', false, 'pending'],
      ['lint', false, 'pending'],
      ['ship', false, 'pending'],
      ['notify', true, 'pending'],
    ]);
    expect(graph.edges.map((e) => [e.id, e.kind])).toEqual([
      ['clone->build', 'runAfter'],
      ['clone->lint', 'runAfter'],
      ['lint->ship', 'runAfter'],
      ['build->ship', 'result'],
      ['ship->notify', 'result'],
    ]);
  });

  it('finds result references in params and when, not elsewhere', () => {
    expect(
      resultReferences({
        name: 'x',
        params: [{ name: 'p', value: 'a $(tasks.one.results.r) $(tasks.two.results.s[*])' }],
        when: [{ input: '$(tasks.three.results.t)', operator: 'in', values: ['$(tasks.one.results.q)'] }],
        taskSpec: { steps: [{ script: '$(tasks.four.results.u)' }] },
      }),
    ).toEqual(['one', 'two', 'three']);
  });

  it('shows the tasks that ran when the definition cannot be read', () => {
    const graph = buildRunGraph(null, [
      tr('a', 'running', at(0), null),
      tr('z', 'failed', at(0), at(1), true),
    ]);
    expect(graph.nodes).toEqual([
      { id: 'a', isFinally: false, status: 'running' },
      { id: 'z', isFinally: true, status: 'failed' },
    ]);
    expect(graph.edges).toEqual([]);
  });

  it('sums up the runs of one task (matrix, retries)', () => {
    expect(taskStatus([])).toBe('pending');
    const s = (status: string) => tr('m', status, null, null);
    expect(taskStatus([s('succeeded'), s('failed')])).toBe('failed');
    expect(taskStatus([s('succeeded'), s('pending')])).toBe('running');
    expect(taskStatus([s('succeeded'), s('skipped')])).toBe('succeeded');
    expect(taskStatus([s('skipped')])).toBe('skipped');
  });
});

describe('the timeline', () => {
  it('puts every started task on one axis, running ones up to now', () => {
    const timeline = timelineOf(
      [tr('a', 'succeeded', at(0), at(2)), tr('b', 'running', at(2), null), tr('c', 'pending', null, null)],
      Date.parse(at(10)),
    );
    expect(timeline.endMs - timeline.startMs).toBe(10_000);
    expect(timeline.bars.map((b) => [b.task, b.left, b.width, b.running])).toEqual([
      ['a', 0, 0.2, false],
      ['b', 0.2, 0.8, true],
    ]);
    expect(timelineOf([], 0).bars).toEqual([]);
  });

  it('follows the predecessors that ended last back from the last task: the critical path', () => {
    const graph = buildRunGraph(pipelineSpecOf(DEFINITION), []);
    const runs = [
      tr('clone', 'succeeded', at(0), at(2)),
      tr('build', 'succeeded', at(2), at(9)),
      tr('lint', 'succeeded', at(2), at(3)),
      tr('ship', 'succeeded', at(9), at(12)),
      tr('notify', 'succeeded', at(12), at(13), true),
    ];
    const timeline = timelineOf(runs, Date.parse(at(20)));
    expect(criticalPath(timeline, graph.edges)).toEqual(['clone', 'build', 'ship', 'notify']);
    // lint made the wait longer: then it is on the path
    runs[2] = tr('lint', 'succeeded', at(2), at(11));
    runs[3] = tr('ship', 'succeeded', at(11), at(12));
    expect(criticalPath(timelineOf(runs, 0), graph.edges)).toEqual(['clone', 'lint', 'ship', 'notify']);
  });
});
