import { describe, expect, it } from 'vitest';
import { strategicMergePatch, type PatchError } from './strategic-merge.js';

// Cases ported from k8s.io/apimachinery/pkg/util/strategicpatch/patch_test.go, with its test
// struct's fields mapped onto real ones: mergingList → a Pod's containers (merge key name),
// mergingIntList → metadata.finalizers (merge strategy on a list of scalars).
type Pod = {
  metadata: { name: string; labels?: Record<string, string>; finalizers?: string[] };
  spec: { containers: Record<string, unknown>[] };
};
const pod = (containers: Record<string, unknown>[], metadata: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name: 'p', ...metadata },
  spec: { containers },
});
const patchPod = (original: object, patch: unknown) =>
  strategicMergePatch(original, patch, 'v1', 'Pod') as Pod;
const names = (p: Pod) => p.spec.containers.map((c) => c.name);
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as PatchError;
  }
  throw new Error('expected a PatchError');
};

describe('strategicMergePatch: lists with a merge key', () => {
  it('merges a container by name and keeps its other fields (the issue 13 re-apply bug)', () => {
    const live = pod([
      { name: 'app', image: 'a:1', ports: [{ containerPort: 80 }] },
      { name: 'side', image: 's:1' },
    ]);
    const out = patchPod(live, { spec: { containers: [{ name: 'app', image: 'a:2' }] } });
    expect(out.spec.containers).toEqual([
      { name: 'app', image: 'a:2', ports: [{ containerPort: 80 }] },
      { name: 'side', image: 's:1' },
    ]);
    expect(live.spec.containers[0]!.image).toBe('a:1');
  });

  it('deletes an item with $patch: delete', () => {
    const out = patchPod(pod([{ name: '1' }, { name: '2' }, { name: '3' }]), {
      spec: { containers: [{ name: '2', $patch: 'delete' }] },
    });
    expect(names(out)).toEqual(['1', '3']);
  });

  it('replaces the whole list with $patch: replace', () => {
    const out = patchPod(pod([{ name: '1', image: 'x' }, { name: '2' }]), {
      spec: { containers: [{ name: '3', image: 'y' }, { $patch: 'replace' }] },
    });
    expect(out.spec.containers).toEqual([{ name: '3', image: 'y' }]);
  });

  it('preserves the order from the patch: patch items first, server-only items where they were', () => {
    const out = patchPod(pod([{ name: '1' }, { name: '2', image: 'b' }, { name: '3' }]), {
      spec: {
        containers: [
          { name: '3', image: 'c' },
          { name: '1', image: 'a' },
        ],
      },
    });
    expect(out.spec.containers).toEqual([
      { name: '2', image: 'b' },
      { name: '3', image: 'c' },
      { name: '1', image: 'a' },
    ]);
  });

  it('orders by $setElementOrder, ignoring names that are not there', () => {
    const out = patchPod(pod([{ name: '1' }, { name: '3' }]), {
      spec: {
        '$setElementOrder/containers': [{ name: '3' }, { name: '2' }, { name: '1' }],
        containers: [
          { name: '3', image: '3' },
          { name: '1', image: '1' },
        ],
      },
    });
    expect(out.spec.containers).toEqual([
      { name: '3', image: '3' },
      { name: '1', image: '1' },
    ]);
  });

  it('orders server-only items as Go does when an item is deleted and another added (apimachinery "add map and delete map from merging list")', () => {
    const live = pod([{ name: '1' }, { name: '2', image: 'b' }, { name: '4', image: 'c' }]);
    const out = patchPod(live, {
      spec: {
        '$setElementOrder/containers': [{ name: '2' }, { name: '3' }],
        containers: [{ name: '3' }, { name: '1', $patch: 'delete' }],
      },
    });
    expect(names(out)).toEqual(['2', '4', '3']);
  });

  it('refuses an item without its merge key, in the apiserver words', () => {
    const err = failure(() => patchPod(pod([{ name: 'a' }]), { spec: { containers: [{ image: 'x' }] } }));
    expect(err.message).toBe('map: map[image:x] does not contain declared merge key: name');
    expect(err.code).toBe(500);
  });

  it('merges Service ports by port', () => {
    const svc = {
      metadata: { name: 's' },
      spec: {
        ports: [
          { port: 80, targetPort: 8080, protocol: 'TCP' },
          { port: 443, protocol: 'TCP' },
        ],
      },
    };
    const out = strategicMergePatch(
      svc,
      { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
      'v1',
      'Service',
    );
    expect(out.spec.ports).toEqual([
      { port: 80, targetPort: 9090, protocol: 'TCP' },
      { port: 443, protocol: 'TCP' },
    ]);
  });
});

describe('strategicMergePatch: lists of scalars', () => {
  it('merges a merge-strategy list of scalars, patch order first', () => {
    const out = patchPod(pod([], { finalizers: ['1', '2', '3'] }), { metadata: { finalizers: ['3', '1'] } });
    expect(out.metadata.finalizers).toEqual(['2', '3', '1']);
    const added = patchPod(pod([], { finalizers: ['a'] }), { metadata: { finalizers: ['b'] } });
    expect(added.metadata.finalizers).toEqual(['b', 'a']);
  });

  it('deletes from a list of scalars with $deleteFromPrimitiveList', () => {
    const out = patchPod(pod([], { finalizers: ['a', 'b', 'c'] }), {
      metadata: { '$deleteFromPrimitiveList/finalizers': ['b'] },
    });
    expect(out.metadata.finalizers).toEqual(['a', 'c']);
  });

  it('orders a list of scalars by $setElementOrder', () => {
    const out = patchPod(pod([], { finalizers: ['1', '3'] }), {
      metadata: { '$setElementOrder/finalizers': ['3', '2', '1'] },
    });
    expect(out.metadata.finalizers).toEqual(['3', '1']);
  });

  it('replaces a list without a patch strategy (container args)', () => {
    const out = patchPod(pod([{ name: 'a', args: ['x', 'y'] }]), {
      spec: { containers: [{ name: 'a', args: ['z'] }] },
    });
    expect(out.spec.containers[0]!.args).toEqual(['z']);
  });
});

describe('strategicMergePatch: maps and directives', () => {
  it('deletes a key given null, and ignores null for keys that are not there', () => {
    const out = patchPod(pod([], { labels: { a: '1', b: '2' } }), {
      metadata: { labels: { a: null, c: null, d: '4' } },
    });
    expect(out.metadata.labels).toEqual({ b: '2', d: '4' });
  });

  it('replaces a map with $patch: replace and empties it with $patch: delete', () => {
    const live = pod([], { labels: { a: '1', b: '2' } });
    expect(patchPod(live, { metadata: { labels: { $patch: 'replace', c: '3' } } }).metadata.labels).toEqual({
      c: '3',
    });
    expect(patchPod(live, { metadata: { labels: { $patch: 'delete' } } }).metadata.labels).toEqual({});
  });

  it('clears the keys $retainKeys does not list (Deployment strategy)', () => {
    const deploy = {
      spec: {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      },
    };
    const out = strategicMergePatch(
      deploy,
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      'apps/v1',
      'Deployment',
    );
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('refuses a patch key $retainKeys does not list', () => {
    const deploy = { spec: { strategy: { type: 'RollingUpdate' } } };
    const err = failure(() =>
      strategicMergePatch(
        deploy,
        { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: {} } } },
        'apps/v1',
        'Deployment',
      ),
    );
    expect(err.code).toBe(400);
    expect(err.message).toBe('invalid patch format of retainKeys');
  });

  it('retains keys on a volume (merge,retainKeys) and drops directives from new values', () => {
    const live = pod([]) as Pod & { spec: { volumes?: unknown[] } };
    live.spec.volumes = [{ name: 'v', emptyDir: {} }];
    const out = patchPod(live, {
      spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'configMap'], configMap: { name: 'c' } }] },
    }) as typeof live;
    expect(out.spec.volumes).toEqual([{ name: 'v', configMap: { name: 'c' } }]);
  });

  it('answers an unknown directive and a bad $setElementOrder key', () => {
    // A directive in a value the live object does not have is dropped, not checked (removeDirectives).
    expect(
      patchPod(pod([]), { metadata: { labels: { $patch: 'explode' } } }).metadata.labels,
    ).toBeUndefined();
    const live = pod([], { labels: { a: '1' } });
    const bad = failure(() => patchPod(live, { metadata: { labels: { $patch: 'explode', a: '1' } } }));
    expect(bad.message).toBe('unknown patch type: explode in map: map[$patch:explode a:1]');
    const order = failure(() => patchPod(pod([]), { spec: { $setElementOrder: [] } }));
    expect(order.message).toBe('invalid patch format of setElementOrder list');
    expect(order.code).toBe(400);
  });

  it('refuses kinds without a built-in schema with 415, as for custom resources', () => {
    const err = failure(() => strategicMergePatch({}, {}, 'example.com/v1', 'Widget'));
    expect(err.code).toBe(415);
  });
});
