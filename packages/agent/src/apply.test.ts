import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  applyConflicts,
  conflictError,
  fieldPaths,
  foreignConflicts,
  isSlipwayManager,
  slipwayAppliedFields,
} from './apply.js';

/** The 409 an API server answers to a conflicting apply (k8s.io/apiserver NewApplyConflict). */
function conflict(causes: { manager: string; using?: string; field: string }[]): ApiException<string> {
  const messages = causes.map(
    (c) => `conflict with ${JSON.stringify(c.manager)}${c.using ? ` using ${c.using}` : ''}`,
  );
  const body = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Apply failed with ${causes.length} conflict${causes.length === 1 ? '' : 's'}: ${causes
      .map((c, i) => `${messages[i]}: ${c.field}`)
      .join('\n')}`,
    reason: 'Conflict',
    details: {
      causes: causes.map((c, i) => ({ type: 'FieldManagerConflict', message: messages[i], field: c.field })),
    },
    code: 409,
  };
  return new ApiException(409, 'Conflict', JSON.stringify(body), {});
}

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'shop' },
};

describe('server-side apply conflicts', () => {
  it("reads the other manager, its API version and the field from a 409's causes", () => {
    expect(
      applyConflicts(
        conflict([
          { manager: 'kubectl-edit', using: 'apps/v1', field: '.spec.replicas' },
          { manager: 'helm', field: '.spec.template.spec.containers[name="web"].image' },
        ]),
      ),
    ).toEqual([
      { manager: 'kubectl-edit', apiVersion: 'apps/v1', field: '.spec.replicas' },
      { manager: 'helm', field: '.spec.template.spec.containers[name="web"].image' },
    ]);
    // Another 409 (an AlreadyExists, an optimistic-lock conflict) is not an apply conflict.
    expect(applyConflicts(new ApiException(409, 'Conflict', '{"reason":"AlreadyExists"}', {}))).toBeNull();
    expect(applyConflicts(new Error('socket hang up'))).toBeNull();
  });

  it('turns fieldsV1 into the paths conflicts name, keys sorted as structured-merge-diff prints them', () => {
    const paths = fieldPaths({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"web"}': {
                '.': {},
                'f:image': {},
                'f:ports': { 'k:{"protocol":"TCP","containerPort":8080}': { 'f:containerPort': {} } },
              },
            },
          },
        },
      },
      'f:finalizers': { 'v:"example.com/keep"': {} },
      'f:args': { 'i:0': {} },
    });
    expect([...paths].sort()).toEqual(
      [
        '.metadata.labels',
        '.metadata.labels.app',
        '.spec.replicas',
        '.spec.template.spec.containers[name="web"]',
        '.spec.template.spec.containers[name="web"].image',
        '.spec.template.spec.containers[name="web"].ports[containerPort=8080,protocol="TCP"].containerPort',
        '.finalizers[="example.com/keep"]',
        '.args[0]',
      ].sort(),
    );
  });

  it('forces only fields Slipway owns: its own managers, or what its Apply entry still holds', () => {
    expect(isSlipwayManager('slipway')).toBe(true);
    expect(isSlipwayManager('slipway-executor')).toBe(true);
    expect(isSlipwayManager('slipwayish')).toBe(false);
    const live = {
      ...deployment,
      metadata: {
        ...deployment.metadata,
        managedFields: [
          {
            manager: 'slipway',
            operation: 'Apply',
            fieldsV1: { 'f:spec': { 'f:template': { 'f:metadata': { 'f:labels': { 'f:app': {} } } } } },
          },
          { manager: 'kubectl-edit', operation: 'Update', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
          // Slipway's Update entries are not what it applied
          { manager: 'slipway', operation: 'Update', fieldsV1: { 'f:spec': { 'f:paused': {} } } },
        ],
      },
    };
    expect([...slipwayAppliedFields(live)]).toEqual(['.spec.template.metadata.labels.app']);
    const conflicts = [
      { manager: 'slipway', apiVersion: 'apps/v1', field: '.spec.minReadySeconds' },
      { manager: 'helm', field: '.spec.template.metadata.labels.app' },
      { manager: 'kubectl-edit', apiVersion: 'apps/v1', field: '.spec.replicas' },
    ];
    expect(foreignConflicts(conflicts, live)).toEqual([conflicts[2]]);
    expect(foreignConflicts(conflicts, null)).toEqual(conflicts.slice(1));
  });

  it('names the object, the fields and their managers, and says what to do', () => {
    const one = conflictError(deployment, [{ manager: 'kubectl-edit', field: '.spec.replicas' }]);
    expect(one.code).toBe('conflict');
    expect(one.message).toBe(
      'Deployment api: field .spec.replicas is managed by "kubectl-edit"; Slipway will not overwrite it. ' +
        'Remove the field from the manifest, or take ownership in the cluster ' +
        '(kubectl apply --server-side --force-conflicts --field-manager=slipway -n shop -f <manifest>)',
    );
    const many = conflictError(deployment, [
      { manager: 'kubectl-edit', field: '.spec.replicas' },
      { manager: 'kubectl-edit', field: '.spec.minReadySeconds' },
      { manager: 'hpa', field: '.metadata.labels.tier' },
    ]);
    expect(many.message).toMatch(
      /^Deployment api: fields \.spec\.replicas and \.spec\.minReadySeconds are managed by "kubectl-edit" and field \.metadata\.labels\.tier is managed by "hpa"; Slipway will not overwrite them\. Remove the fields from the manifest/,
    );
  });
});
