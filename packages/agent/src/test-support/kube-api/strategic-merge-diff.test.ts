import { describe, expect, it } from 'vitest';
import { strategicMergePatch } from './strategic-merge.js';
import { createThreeWayMergePatch, createTwoWayMergePatch } from './strategic-merge-diff.js';

const pod = (containers: object[], metadata: object = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...metadata },
  spec: { containers },
});

describe('createTwoWayMergePatch', () => {
  it('deletes a removed container with a $patch: delete item and records the order', () => {
    const original = pod([
      { name: 'a', image: 'a' },
      { name: 'b', image: 'b' },
    ]);
    const modified = pod([{ name: 'b', image: 'b' }]);
    const patch = createTwoWayMergePatch(original, modified, 'v1', 'Pod');
    expect(patch).toEqual({
      spec: { '$setElementOrder/containers': [{ name: 'b' }], containers: [{ name: 'a', $patch: 'delete' }] },
    });
    expect(strategicMergePatch(original, patch, 'v1', 'Pod')).toEqual(modified);
  });

  it('uses a parallel deletion list for merged scalars', () => {
    const original = pod([], { finalizers: ['a', 'b'] });
    const modified = pod([], { finalizers: ['b', 'c'] });
    const patch = createTwoWayMergePatch(original, modified, 'v1', 'Pod');
    expect(patch).toEqual({
      metadata: {
        '$deleteFromPrimitiveList/finalizers': ['a'],
        '$setElementOrder/finalizers': ['b', 'c'],
        finalizers: ['c'],
      },
    });
    expect(strategicMergePatch(original, patch, 'v1', 'Pod')).toEqual(modified);
  });

  it('builds $retainKeys for a Deployment strategy switched to Recreate, as kubectl sends it', () => {
    const original = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    const modified = { spec: { strategy: { type: 'Recreate' } } };
    const patch = createTwoWayMergePatch(original, modified, 'apps/v1', 'Deployment');
    expect(patch).toEqual({
      spec: { strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' } },
    });
    expect(strategicMergePatch(original, patch, 'apps/v1', 'Deployment')).toEqual(modified);
  });

  it('is empty when nothing changed', () => {
    const p = pod([{ name: 'a', image: 'a', ports: [{ containerPort: 80 }] }]);
    expect(createTwoWayMergePatch(p, structuredClone(p), 'v1', 'Pod')).toEqual({});
  });
});

describe('createThreeWayMergePatch (kubectl apply)', () => {
  it('changes what the manifest changed, deletes what it dropped, and keeps what others added', () => {
    const lastApplied = pod([{ name: 'a', image: 'a:1' }], { labels: { x: '1' } });
    const modified = pod([{ name: 'a', image: 'a:2' }], { labels: { z: '3' } });
    const live = pod(
      [
        { name: 'a', image: 'a:1', imagePullPolicy: 'IfNotPresent' },
        { name: 'b', image: 'b' },
      ],
      { labels: { x: '1', y: '2' } },
    );
    const patch = createThreeWayMergePatch(lastApplied, modified, live, 'v1', 'Pod');
    expect(patch).toEqual({
      metadata: { labels: { x: null, z: '3' } },
      spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'a', image: 'a:2' }] },
    });
    const result = strategicMergePatch(live, patch, 'v1', 'Pod');
    expect(result).toEqual(
      pod(
        [
          { name: 'a', image: 'a:2', imagePullPolicy: 'IfNotPresent' },
          { name: 'b', image: 'b' },
        ],
        { labels: { y: '2', z: '3' } },
      ),
    );
    // Dropping every label sends `labels: null`, which clears the labels others set too (as kubectl does).
    const dropAll = createThreeWayMergePatch(
      lastApplied,
      pod([{ name: 'a', image: 'a:1' }]),
      live,
      'v1',
      'Pod',
    );
    // The live list has an item the manifest lacks, so the order is sent too (as kubectl does).
    expect(dropAll).toEqual({
      metadata: { labels: null },
      spec: { '$setElementOrder/containers': [{ name: 'a' }] },
    });
  });

  it('is empty when the manifest matches what is live', () => {
    const manifest = pod([{ name: 'a', image: 'a:1' }]);
    const live = pod([{ name: 'a', image: 'a:1', terminationMessagePath: '/dev/termination-log' }]);
    expect(createThreeWayMergePatch(manifest, manifest, live, 'v1', 'Pod')).toEqual({});
  });
});
