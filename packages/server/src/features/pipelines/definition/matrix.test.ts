import { describe, expect, it } from 'vitest';
import { aggregateMatrixResults, expandMatrix, matrixCombinations } from './matrix.js';
import type { PipelineTask } from './model.js';

describe('matrixCombinations', () => {
  it('fans out the cartesian product, the first param varying fastest (Tekton order)', () => {
    const combinations = matrixCombinations({
      params: [
        { name: 'platform', value: ['linux', 'mac'] },
        { name: 'browser', value: ['safari', 'chrome'] },
      ],
    });
    expect(combinations).toEqual([
      { platform: 'linux', browser: 'safari' },
      { platform: 'mac', browser: 'safari' },
      { platform: 'linux', browser: 'chrome' },
      { platform: 'mac', browser: 'chrome' },
    ]);
  });

  it('adds include params to matching combinations and appends new ones', () => {
    const combinations = matrixCombinations({
      params: [
        { name: 'platform', value: ['linux', 'mac'] },
        { name: 'browser', value: ['safari', 'chrome'] },
      ],
      include: [
        {
          name: 'linux-url',
          params: [
            { name: 'platform', value: 'linux' },
            { name: 'url', value: 'some-url' },
          ],
        },
        { name: 'non-existent-browser', params: [{ name: 'browser', value: 'firefox' }] },
      ],
    });
    expect(combinations).toEqual([
      { platform: 'linux', browser: 'safari', url: 'some-url' },
      { platform: 'mac', browser: 'safari' },
      { platform: 'linux', browser: 'chrome', url: 'some-url' },
      { platform: 'mac', browser: 'chrome' },
      { browser: 'firefox' },
    ]);
  });

  it('uses include alone as explicit combinations', () => {
    const combinations = matrixCombinations({
      include: [
        {
          name: 'a',
          params: [
            { name: 'IMAGE', value: 'image-1' },
            { name: 'DOCKERFILE', value: 'path/1' },
          ],
        },
        {
          name: 'b',
          params: [
            { name: 'IMAGE', value: 'image-2' },
            { name: 'DOCKERFILE', value: 'path/2' },
          ],
        },
      ],
    });
    expect(combinations).toEqual([
      { IMAGE: 'image-1', DOCKERFILE: 'path/1' },
      { IMAGE: 'image-2', DOCKERFILE: 'path/2' },
    ]);
  });

  it('expands a param reference into the matrix values', () => {
    const combinations = matrixCombinations(
      { params: [{ name: 'version', value: '$(params.versions[*])' }] },
      { params: { versions: ['20', '22'] } },
    );
    expect(combinations).toEqual([{ version: '20' }, { version: '22' }]);
  });
});

describe('expandMatrix', () => {
  const task: PipelineTask = {
    name: 'test',
    taskRef: { name: 'npm-test' },
    params: [{ name: 'script', value: 'test' }],
    matrix: { params: [{ name: 'node', value: ['20', '22'] }] },
  };

  it('names runs <task>-0, <task>-1 and adds the combination to the params', () => {
    expect(expandMatrix(task)).toEqual([
      {
        name: 'test-0',
        taskRef: { name: 'npm-test' },
        params: [
          { name: 'script', value: 'test' },
          { name: 'node', value: '20' },
        ],
      },
      {
        name: 'test-1',
        taskRef: { name: 'npm-test' },
        params: [
          { name: 'script', value: 'test' },
          { name: 'node', value: '22' },
        ],
      },
    ]);
  });

  it('leaves a task without a matrix alone and refuses more than 256 runs', () => {
    expect(expandMatrix({ name: 'x', taskRef: { name: 'y' } })).toHaveLength(1);
    const huge = Array.from({ length: 17 }, (_, i) => String(i));
    const big: PipelineTask = {
      ...task,
      matrix: {
        params: [
          { name: 'a', value: huge },
          { name: 'b', value: huge },
        ],
      },
    };
    expect(() => expandMatrix(big)).toThrow('matrix of task "test" makes 289 combinations, more than 256');
  });
});

describe('aggregateMatrixResults', () => {
  it('collects each string result into an array in run order', () => {
    expect(aggregateMatrixResults([{ report: 'r0', digest: 'd0' }, { report: 'r1' }])).toEqual({
      report: ['r0', 'r1'],
      digest: ['d0'],
    });
  });
});
