import { describe, expect, it } from 'vitest';
import { buildGraph, findCycle, pipelineEdges } from './graph.js';
import { buildAndDeploy, inlinePipeline } from './test-fixtures.js';

describe('buildGraph', () => {
  it('builds nodes, edges tagged by kind, and a topological order', () => {
    const graph = buildGraph(buildAndDeploy());
    expect(graph.nodes.map((n) => [n.name, n.isFinally])).toEqual([
      ['fetch-source', false],
      ['build', false],
      ['test', false],
      ['deploy', false],
      ['notify', true],
    ]);
    expect(graph.edges).toEqual([
      { from: 'fetch-source', to: 'build', kind: 'runAfter' },
      { from: 'fetch-source', to: 'test', kind: 'runAfter' },
      { from: 'test', to: 'deploy', kind: 'runAfter' },
      { from: 'fetch-source', to: 'build', kind: 'result' },
      { from: 'build', to: 'deploy', kind: 'result' },
    ]);
    expect(graph.order).toEqual(['fetch-source', 'build', 'test', 'deploy', 'notify']);
    expect(graph.nodes.find((n) => n.name === 'deploy')?.parents).toEqual(['test', 'build']);
  });

  it('orders by result references alone (implicit ordering)', () => {
    const graph = buildGraph(
      inlinePipeline([
        { name: 'report', params: [['in', '$(tasks.compile.results.out)']] },
        { name: 'compile' },
      ]),
    );
    expect(graph.order).toEqual(['compile', 'report']);
    expect(graph.edges).toEqual([{ from: 'compile', to: 'report', kind: 'result' }]);
  });

  it('keeps result edges into finally tasks for display, not status references', () => {
    const pipeline = inlinePipeline([{ name: 'a' }]);
    pipeline.spec.finally = [
      {
        name: 'cleanup',
        params: [{ name: 'in', value: '$(tasks.a.results.out) $(tasks.a.status)' }],
        taskSpec: pipeline.spec.tasks[0]!.taskSpec,
      },
    ];
    expect(pipelineEdges(pipeline)).toEqual([{ from: 'a', to: 'cleanup', kind: 'result' }]);
    expect(buildGraph(pipeline).order).toEqual(['a', 'cleanup']);
  });

  it('throws on a cycle, naming it', () => {
    const pipeline = inlinePipeline([
      { name: 'a', runAfter: ['b'] },
      { name: 'b', runAfter: ['a'] },
    ]);
    expect(() => buildGraph(pipeline)).toThrow('cycle: a → b → a');
  });
});

describe('findCycle', () => {
  it('finds a self loop and returns null for a DAG', () => {
    expect(findCycle(['a'], [{ from: 'a', to: 'a', kind: 'runAfter' }])).toEqual(['a', 'a']);
    expect(
      findCycle(
        ['a', 'b', 'c'],
        [
          { from: 'a', to: 'b', kind: 'runAfter' },
          { from: 'a', to: 'c', kind: 'runAfter' },
          { from: 'b', to: 'c', kind: 'result' },
        ],
      ),
    ).toBeNull();
  });
});
