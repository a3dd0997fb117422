import { describe, expect, it } from 'vitest';
import {
  ApplyConflictError,
  TypedValueError,
  applyServerSide,
  recordUpdate,
  type ManagedFieldsEntry,
} from './field-manager.js';
import { decodeFieldsV1, encodeFieldsV1, pathString } from './field-manager-set.js';
import { applyDefaults } from './openapi-defaults.js';

const NOW = '2026-11-24T10:00:00Z';
const LATER = '2026-11-24T10:05:00Z';

function deployment(
  opts: { replicas?: number; image?: string; labels?: Record<string, string>; ports?: boolean } = {},
) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: opts.labels ?? { app: 'web' } },
    spec: {
      ...(opts.replicas === undefined ? {} : { replicas: opts.replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: opts.image ?? 'nginx:1.27',
              ...(opts.ports === false
                ? {}
                : { ports: [{ containerPort: 80 }] as Record<string, unknown>[] }),
            },
          ],
        },
      },
    },
  };
}
const apply = (live: object | undefined, applied: object, manager = 'kubectl', force = false, now = NOW) =>
  applyServerSide(live, applied, { manager, force, apiVersion: 'apps/v1', kind: 'Deployment', now });
const update = (before: object | undefined, after: object, manager: string, now = NOW) => {
  const managedFields = recordUpdate(before, after, {
    manager,
    operation: 'Update',
    apiVersion: 'apps/v1',
    now,
  });
  const out = structuredClone(after) as { metadata: Record<string, unknown> };
  out.metadata.managedFields = managedFields;
  return out;
};
const entry = (fields: ManagedFieldsEntry[], manager: string) => fields.find((e) => e.manager === manager);
type Spec = {
  spec: { replicas?: number; template: { spec: { containers: Record<string, unknown>[] } } };
  metadata: Record<string, unknown> & { labels?: Record<string, string> };
};

describe('applyServerSide', () => {
  it('records the applied fields in the FieldsV1 encoding kubectl apply --server-side shows', () => {
    const { object, managedFields } = apply(undefined, deployment({ replicas: 2 }));
    expect(managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: NOW,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    '.': {},
                    'f:image': {},
                    'f:name': {},
                    'f:ports': {
                      'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ]);
    expect((object.metadata as { managedFields: unknown }).managedFields).toBe(managedFields);
    expect((object as unknown as Spec).spec.replicas).toBe(2);
  });

  it('answers a conflict with a field another manager set, in the apiserver words, and takes it with force', () => {
    const created = update(undefined, deployment({ replicas: 1 }), 'kubectl-client-side-apply');
    let error: unknown;
    try {
      apply(created, deployment({ replicas: 3 }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApplyConflictError);
    const conflict = error as ApplyConflictError;
    expect(conflict.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    expect(conflict.causes).toEqual([
      {
        type: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ]);

    const forced = apply(created, deployment({ replicas: 3 }), 'kubectl', true);
    expect((forced.object as unknown as Spec).spec.replicas).toBe(3);
    const csa = decodeFieldsV1(entry(forced.managedFields, 'kubectl-client-side-apply')!.fieldsV1);
    expect(csa.children.get('f:spec')?.children.has('f:replicas')).toBe(false);
    expect(entry(forced.managedFields, 'kubectl')!.fieldsV1['f:spec']).toHaveProperty('f:replicas');
  });

  it('lists several conflicts by manager', () => {
    const created = update(undefined, deployment({ replicas: 1 }), 'helm');
    const err = (() => {
      try {
        apply(created, deployment({ replicas: 2, image: 'nginx:1.28' }));
      } catch (e) {
        return e as ApplyConflictError;
      }
      return undefined;
    })();
    expect(err?.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "helm" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image',
    );
  });

  it('shares a field when the applier sets the value another manager already set', () => {
    const created = update(undefined, deployment({ replicas: 2 }), 'kubectl-client-side-apply');
    const { managedFields } = apply(created, deployment({ replicas: 2 }));
    expect(entry(managedFields, 'kubectl')!.fieldsV1['f:spec']).toHaveProperty('f:replicas');
    expect(entry(managedFields, 'kubectl-client-side-apply')!.fieldsV1['f:spec']).toHaveProperty(
      'f:replicas',
    );
  });

  it('removes fields the applier stops applying, unless another manager owns them', () => {
    const first = apply(undefined, deployment({ labels: { app: 'web', tier: 'front' } })).object;
    const second = apply(first, deployment({ labels: { app: 'web' } }), 'kubectl', false, LATER)
      .object as unknown as Spec;
    expect(second.metadata.labels).toEqual({ app: 'web' });

    const shared = apply(first, deployment({ labels: { app: 'web', tier: 'front' } }), 'other').object;
    const third = apply(shared, deployment({ labels: { app: 'web' } })).object as unknown as Spec;
    expect(third.metadata.labels).toEqual({ app: 'web', tier: 'front' });
  });

  it('keeps image and ports on re-apply after another manager changed the container (issue 13)', () => {
    const applied = apply(undefined, deployment()).object as unknown as Spec;
    const edited = structuredClone(applied);
    edited.spec.template.spec.containers[0]!.env = [{ name: 'MODE', value: 'x' }];
    const updated = update(applied, edited, 'kubectl-edit', LATER);
    const again = apply(updated, deployment(), 'kubectl', false, LATER).object as unknown as Spec;
    expect(again.spec.template.spec.containers).toEqual([
      {
        name: 'nginx',
        image: 'nginx:1.27',
        ports: [{ containerPort: 80 }],
        env: [{ name: 'MODE', value: 'x' }],
      },
    ]);
  });

  it('drops a port the applier no longer lists', () => {
    const first = apply(undefined, deployment()).object;
    const second = apply(first, deployment({ ports: false })).object as unknown as Spec;
    expect(second.spec.template.spec.containers[0]).toEqual({ name: 'nginx', image: 'nginx:1.27' });
  });

  it('keeps an item another applier owns and prunes only what was ours (SMD multiple appliers)', () => {
    const pod = (containers: object[]) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers },
    });
    const podApply = (live: object | undefined, obj: object, manager: string) =>
      applyServerSide(live, obj, { manager, force: false, apiVersion: 'v1', kind: 'Pod', now: NOW }).object;
    let live = podApply(
      undefined,
      pod([
        { name: 'a', image: 'a' },
        { name: 'b', image: 'b', args: ['x'] },
      ]),
      'apply-one',
    );
    live = podApply(live, pod([{ name: 'b', image: 'b' }]), 'apply-two');
    live = podApply(live, pod([{ name: 'a', image: 'a' }]), 'apply-one');
    expect((live as { spec: { containers: unknown[] } }).spec.containers).toEqual([
      { name: 'a', image: 'a' },
      { name: 'b', image: 'b' },
    ]);
  });

  it('refuses a keyed list item without its key as structured-merge-diff does', () => {
    const bad = deployment();
    delete (bad.spec.template.spec.containers[0] as { name?: string }).name;
    expect(() => apply(undefined, bad)).toThrow(TypedValueError);
    expect(() => apply(undefined, bad)).toThrow(
      'failed to create typed patch object (apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
    const unknown = deployment() as Record<string, unknown> & { spec: Record<string, unknown> };
    unknown.spec.foo = 1;
    expect(() => apply(undefined, unknown)).toThrow(
      'failed to create typed patch object (apps/v1, Kind=Deployment): .spec.foo: field not declared in schema',
    );
    const dup = deployment();
    dup.spec.template.spec.containers.push({ name: 'nginx', image: 'x' } as never);
    expect(() => apply(undefined, dup)).toThrow(
      'failed to create typed patch object (apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="nginx"]',
    );
  });

  it('does not let the main resource own status', () => {
    const withStatus = { ...deployment(), status: { replicas: 5 } };
    const { managedFields } = apply(undefined, withStatus);
    expect(managedFields[0]!.fieldsV1).not.toHaveProperty('f:status');
  });
});

describe('applyServerSide and the client-side apply annotation (lastAppliedUpdater)', () => {
  it("kubectl's server-side apply rewrites an existing last-applied annotation; other managers do not", () => {
    const csa = deployment();
    (csa.metadata as Record<string, unknown>).annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': '{"old":true}\n',
    };
    const created = update(undefined, csa, 'kubectl-client-side-apply');
    const manifest = deployment({ replicas: 1, image: 'nginx:<1.28>' });
    const { object } = apply(created, manifest, 'kubectl', true);
    const annotation = (object.metadata as { annotations: Record<string, string> }).annotations[
      'kubectl.kubernetes.io/last-applied-configuration'
    ]!;
    expect(annotation.endsWith('}\n')).toBe(true);
    expect(annotation).toContain('"image":"nginx:\\u003c1.28\\u003e"');
    expect(JSON.parse(annotation)).toEqual(manifest);
    expect(annotation.indexOf('"apiVersion"')).toBeLessThan(annotation.indexOf('"kind"'));
    const other = apply(created, manifest, 'argocd-controller', true).object;
    expect(
      (other.metadata as { annotations: Record<string, string> }).annotations[
        'kubectl.kubernetes.io/last-applied-configuration'
      ],
    ).toBe('{"old":true}\n');
  });
});

describe('objects nobody tracks (skipNonAppliedManager)', () => {
  it('an update of an object without managedFields records none', () => {
    const untracked = deployment({ replicas: 1 });
    const scaled = deployment({ replicas: 2 });
    expect(
      recordUpdate(untracked, scaled, {
        manager: 'kubectl-edit',
        operation: 'Update',
        apiVersion: 'apps/v1',
        now: NOW,
      }),
    ).toEqual([]);
  });

  it('a first apply to it conflicts with "before-first-apply", which owns what was there', () => {
    const untracked = deployment({ replicas: 1 });
    expect(() => apply(untracked, deployment({ replicas: 2 }), 'helm')).toThrow(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
    const { managedFields } = apply(untracked, deployment({ replicas: 2 }), 'helm', true);
    expect(managedFields.map((e) => e.manager)).toEqual(['helm', 'before-first-apply']);
  });
});

describe('applyServerSide moving from client-side apply (lastAppliedManager)', () => {
  function clientSideApplied(replicas: number) {
    const manifest = deployment({ replicas });
    const annotated = structuredClone(manifest) as Record<string, unknown> & {
      metadata: Record<string, unknown>;
    };
    annotated.metadata.annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': `${JSON.stringify(manifest)}\n`,
    };
    return update(undefined, annotated, 'kubectl-client-side-apply');
  }

  it('lets kubectl take the fields its last client-side apply set, without --force-conflicts', () => {
    const live = clientSideApplied(2);
    const { object, managedFields } = apply(live, deployment({ replicas: 3 }), 'kubectl');
    expect((object as unknown as Spec).spec.replicas).toBe(3);
    expect(entry(managedFields, 'kubectl')!.fieldsV1['f:spec']).toHaveProperty('f:replicas');
  });

  it('still conflicts on a field someone else changed since, and for other managers', () => {
    const live = clientSideApplied(2) as unknown as Spec & { metadata: Record<string, unknown> };
    const scaled = structuredClone(live);
    scaled.spec.replicas = 5;
    const edited = update(live, scaled, 'kubectl-edit');
    expect(() => apply(edited, deployment({ replicas: 3 }), 'kubectl')).toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using apps/v1: .spec.replicas',
    );
    expect(() => apply(clientSideApplied(2), deployment({ replicas: 3 }), 'helm')).toThrow(
      ApplyConflictError,
    );
  });
});

describe('recordUpdate', () => {
  it('gives a creator the fields it set, with "." on maps and pointers that did not exist', () => {
    const created = deployment({ replicas: 1 }) as Record<string, unknown> & {
      spec: Record<string, unknown>;
    };
    created.spec.strategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
    };
    const [e] = recordUpdate(undefined, created, {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      now: NOW,
    });
    expect(e).toMatchObject({
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: NOW,
      fieldsType: 'FieldsV1',
    });
    expect(e!.fieldsV1['f:metadata']).toEqual({ 'f:labels': { '.': {}, 'f:app': {} } });
    const spec = e!.fieldsV1['f:spec']!;
    expect(Object.keys(spec)).not.toContain('.');
    expect(spec['f:strategy']).toEqual({
      'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
      'f:type': {},
    });
    expect(spec['f:selector']).toEqual({});
    expect(spec['f:template']!['f:spec']!['f:containers']!['k:{"name":"nginx"}']).toMatchObject({
      '.': {},
      'f:image': {},
      'f:name': {},
    });
  });

  it('matches the managedFields a real apiserver recorded for kubectl create deployment nginx --image=nginx', () => {
    // The body kubectl sends, defaulted as the apiserver does before recording the update.
    const created = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nginx', creationTimestamp: null, labels: { app: 'nginx' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'nginx' } },
        strategy: {},
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'nginx' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
        },
      },
      status: {},
    };
    applyDefaults(created);
    const [e] = recordUpdate(undefined, created, {
      manager: 'kubectl-create',
      operation: 'Update',
      apiVersion: 'apps/v1',
      now: NOW,
    });
    // From a real cluster's `kubectl get deployment -o json` (Kubernetes 1.2x).
    expect(e!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:progressDeadlineSeconds': {},
        'f:replicas': {},
        'f:revisionHistoryLimit': {},
        'f:selector': {},
        'f:strategy': {
          'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
          'f:type': {},
        },
        'f:template': {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"nginx"}': {
                '.': {},
                'f:image': {},
                'f:imagePullPolicy': {},
                'f:name': {},
                'f:resources': {},
                'f:terminationMessagePath': {},
                'f:terminationMessagePolicy': {},
              },
            },
            'f:dnsPolicy': {},
            'f:restartPolicy': {},
            'f:schedulerName': {},
            'f:securityContext': {},
            'f:terminationGracePeriodSeconds': {},
          },
        },
      },
    });
  });

  it('moves a changed field to the updater and keeps the others, sorted Apply first', () => {
    const applied = apply(undefined, deployment({ replicas: 2 })).object as unknown as Spec;
    const scaled = structuredClone(applied);
    scaled.spec.replicas = 5;
    const fields = recordUpdate(applied, scaled, {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'apps/v1',
      now: LATER,
    });
    expect(fields.map((f) => [f.manager, f.operation])).toEqual([
      ['kubectl', 'Apply'],
      ['kube-controller-manager', 'Update'],
    ]);
    expect(fields[0]!.fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
    expect(fields[1]!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('records /status writes as their own entry with subresource', () => {
    // Created objects carry the Go zero value `status: {}`, so status itself is not "added".
    const applied = apply(undefined, deployment()).object as Record<string, unknown>;
    expect(applied.status).toEqual({});
    const withStatus = { ...structuredClone(applied), status: { replicas: 1, readyReplicas: 1 } };
    const fields = recordUpdate(applied, withStatus, {
      manager: 'kube-controller-manager',
      operation: 'Update',
      apiVersion: 'apps/v1',
      subresource: 'status',
      now: LATER,
    });
    expect(entry(fields, 'kube-controller-manager')).toMatchObject({
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } },
    });
  });

  it('leaves managedFields alone for a no-op', () => {
    const created = update(undefined, deployment(), 'helm');
    const fields = recordUpdate(created, structuredClone(created), {
      manager: 'helm',
      operation: 'Update',
      apiVersion: 'apps/v1',
      now: LATER,
    });
    expect(fields).toEqual(created.metadata.managedFields);
  });
});

// Cases from kubernetes/kubernetes test/integration/apiserver/apply/apply_test.go.
describe('apiserver integration cases', () => {
  const cmApply = (live: object | undefined, body: object, manager: string, now = NOW) =>
    applyServerSide(live, body, { manager, force: false, apiVersion: 'v1', kind: 'ConfigMap', now }).object;
  const cmUpdate = (before: object, after: object, manager: string, now: string) => {
    const out = structuredClone(after) as { metadata: Record<string, unknown> };
    out.metadata.managedFields = recordUpdate(before, after, {
      manager,
      operation: 'Update',
      apiVersion: 'v1',
      now,
    });
    return out;
  };
  const cm = (extra: object = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'test-cm', namespace: 'default' },
    ...extra,
  });

  it('TestApplyManagedFields: merge patches by another manager take the fields they change, grouped in one entry', () => {
    let live: object = cmApply(
      undefined,
      cm({
        metadata: { name: 'test-cm', namespace: 'default', labels: { 'test-label': 'test' } },
        data: { key: 'value' },
      }),
      'apply_test',
    );
    const t1 = '2026-11-24T10:00:01Z';
    const t2 = '2026-11-24T10:00:02Z';
    const patched1 = structuredClone(live) as { data: Record<string, string> };
    patched1.data['new-key'] = 'value';
    live = cmUpdate(live, patched1, 'updater', t1);
    const patched2 = structuredClone(live) as { data: Record<string, string> };
    patched2.data.key = 'new value';
    live = cmUpdate(live, patched2, 'updater', t2);
    expect((live as { metadata: { managedFields: unknown } }).metadata.managedFields).toEqual([
      {
        manager: 'apply_test',
        operation: 'Apply',
        apiVersion: 'v1',
        time: NOW,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { 'f:test-label': {} } } },
      },
      {
        manager: 'updater',
        operation: 'Update',
        apiVersion: 'v1',
        time: t2,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:key': {}, 'f:new-key': {} } },
      },
    ]);
  });

  it('TestClearManagedFieldsWithMergePatch: a request setting managedFields to [{}] clears them', () => {
    const applied = cmApply(undefined, cm({ data: { key: 'value' } }), 'apply_test');
    const cleared = structuredClone(applied) as { metadata: Record<string, unknown> };
    cleared.metadata.managedFields = [{}];
    expect(
      recordUpdate(applied, cleared, {
        manager: 'kubectl-patch',
        operation: 'Update',
        apiVersion: 'v1',
        now: LATER,
      }),
    ).toEqual([]);
  });

  it('refuses an apply body with managedFields, or of another version, with 400 as the apiserver does', () => {
    const withFields = { ...cm(), metadata: { name: 'test-cm', managedFields: [] } };
    expect(() => cmApply(undefined, withFields, 'apply_test')).toThrow('metadata.managedFields must be nil');
    const wrongVersion = { ...cm(), apiVersion: 'v2' };
    expect(() => cmApply(undefined, wrongVersion, 'apply_test')).toThrow(
      'Incorrect version specified in apply patch. Specified patch version: v2, expected: v1',
    );
  });

  it('TestApplyRemovesEmptyManagedFields: an apply that sets nothing leaves no managedFields', () => {
    const first = cmApply(undefined, cm(), 'apply_test');
    const second = cmApply(first, cm(), 'apply_test');
    expect(second.metadata).not.toHaveProperty('managedFields');
  });

  it('TestNoopChangeCreationTime: re-applying the same body changes nothing, not even the time', () => {
    const body = cm({ data: { key: 'value' } });
    const first = cmApply(undefined, body, 'apply_test', NOW);
    const second = cmApply(first, body, 'apply_test', LATER);
    expect(second).toEqual(first);
  });

  it('TestApplyConvertsManagedFieldsVersion: a sidecar applier owns its container, name included', () => {
    const created = update(undefined, deployment(), 'kubectl-create');
    const sidecar = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { sidecar_version: 'release' } },
      spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'sidecar:latest' }] } } },
    };
    const { managedFields } = apply(created, sidecar, 'sidecar_controller');
    expect(entry(managedFields, 'sidecar_controller')!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { 'f:sidecar_version': {} } },
      'f:spec': {
        'f:template': {
          'f:spec': { 'f:containers': { 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
  });
});

describe('apiserver integration cases: appliers and controllers', () => {
  type D = ReturnType<typeof deployment> & {
    spec: {
      replicas?: number;
      template: { spec: { containers: Record<string, unknown>[]; hostname?: string } };
    };
  };

  it('TestApplyCanTransferFieldOwnershipToController: replicas taken by an updater survive the applier dropping them', () => {
    const applied = apply(undefined, deployment({ replicas: 3 }), 'test_applier').object;
    const scaled = structuredClone(applied) as unknown as D;
    scaled.spec.replicas = 4;
    const updated = update(applied, scaled, 'test_updater');
    const after = apply(updated, deployment(), 'test_applier').object as unknown as D;
    expect(after.spec.replicas).toBe(4);
  });

  it('TestApplyCanRemoveMapItemsContributedToByControllers: a container goes even if a controller set a field in it', () => {
    const applied = apply(undefined, deployment({ ports: false }), 'test_applier').object;
    const edited = structuredClone(applied) as unknown as D;
    edited.spec.template.spec.containers[0]!.workingDir = '/home/replacement';
    const updated = update(applied, edited, 'test_updater');
    const next = deployment({ ports: false, replicas: 3 }) as unknown as D;
    next.spec.template.spec.containers = [{ name: 'other-container', image: 'nginx:latest' }];
    next.spec.template.spec.hostname = 'test-hostname';
    const { object, managedFields } = apply(updated, next, 'test_applier');
    expect((object as unknown as D).spec.template.spec.containers).toEqual([
      { name: 'other-container', image: 'nginx:latest' },
    ]);
    expect(entry(managedFields, 'test_updater')).toBeUndefined();
  });

  it('TestDefaultMissingKeys: a port without protocol is keyed with TCP, so another applier renaming it conflicts once', () => {
    const first = deployment({ ports: false }) as unknown as D;
    first.spec.template.spec.containers[0]!.ports = [{ name: 'foo', containerPort: 80 }];
    const applied = apply(undefined, first, 'test_applier').object;
    const second = deployment({ ports: false }) as unknown as D;
    second.spec.template.spec.containers[0]!.ports = [{ name: 'bar', containerPort: 80, protocol: 'TCP' }];
    let err: ApplyConflictError | undefined;
    try {
      apply(applied, second, 'test_applier_conflict');
    } catch (e) {
      err = e as ApplyConflictError;
    }
    expect(err?.causes).toEqual([
      {
        type: 'FieldManagerConflict',
        message: 'conflict with "test_applier"',
        field: '.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].name',
      },
    ]);
  });
});

describe('structured-merge-diff cases (sigs.k8s.io/structured-merge-diff merge tests, on real kinds)', () => {
  it('owns items with a duplicated key as a whole (duplicates_test: env vars with the same name)', () => {
    const before = update(undefined, deployment(), 'kubectl-create');
    const after = structuredClone(before) as unknown as {
      spec: { template: { spec: { containers: Record<string, unknown>[] } } };
    };
    after.spec.template.spec.containers[0]!.env = [
      { name: 'A', value: '1' },
      { name: 'A', value: '2' },
      { name: 'B', value: '3' },
    ];
    const e = entry(
      recordUpdate(before, after, {
        manager: 'kubectl-edit',
        operation: 'Update',
        apiVersion: 'apps/v1',
        now: NOW,
      }),
      'kubectl-edit',
    );
    expect(
      e!.fieldsV1['f:spec']!['f:template']!['f:spec']!['f:containers']!['k:{"name":"nginx"}']!['f:env'],
    ).toEqual({
      '.': {},
      'k:{"name":"A"}': {},
      'k:{"name":"B"}': { '.': {}, 'f:name': {}, 'f:value': {} },
    });
  });

  it('an applied null map has no opinion on its items: what others own stays (nested_test struct_apply_update_dict_null)', () => {
    const applied = apply(undefined, deployment({ labels: { a: '1' } }), 'default').object as unknown as Spec;
    const labelled = structuredClone(applied);
    labelled.metadata.labels = { a: '1', b: '2' };
    const updated = update(applied, labelled, 'controller');
    const nullLabels = { ...deployment(), metadata: { name: 'web', namespace: 'default', labels: null } };
    const after = apply(updated, nullLabels, 'default').object as unknown as Spec;
    expect(after.metadata.labels).toEqual({ b: '2' });
  });
});

describe('field paths', () => {
  it('prints paths as fieldpath.Path.String does', () => {
    expect(pathString(['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}', 'f:targetPort'])).toBe(
      '.spec.ports[port=80,protocol="TCP"].targetPort',
    );
    expect(pathString(['f:metadata', 'f:finalizers', 'v:"kubernetes"'])).toBe(
      '.metadata.finalizers[="kubernetes"]',
    );
    expect(pathString(['f:items', 'i:3'])).toBe('.items[3]');
  });

  it('round-trips FieldsV1', () => {
    const raw = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } };
    expect(encodeFieldsV1(decodeFieldsV1(raw))).toEqual(raw);
  });
});
