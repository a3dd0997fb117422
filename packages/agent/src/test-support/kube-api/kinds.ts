import { HttpError, type KindInfo } from './types.js';

const core = (kind: string, plural: string, namespaced = true, shortNames?: string[]): KindInfo => ({
  group: '',
  version: 'v1',
  kind,
  plural,
  namespaced,
  ...(shortNames ? { shortNames } : {}),
});
const grouped = (
  group: string,
  version: string,
  kind: string,
  plural: string,
  namespaced = true,
  shortNames?: string[],
): KindInfo => ({
  group,
  version,
  kind,
  plural,
  namespaced,
  ...(shortNames ? { shortNames } : {}),
});

export const BUILT_IN_KINDS: KindInfo[] = [
  core('Namespace', 'namespaces', false, ['ns']),
  core('Node', 'nodes', false, ['no']),
  core('Pod', 'pods', true, ['po']),
  core('Service', 'services', true, ['svc']),
  core('ConfigMap', 'configmaps', true, ['cm']),
  core('Secret', 'secrets'),
  core('ServiceAccount', 'serviceaccounts', true, ['sa']),
  core('Event', 'events', true, ['ev']),
  core('PersistentVolumeClaim', 'persistentvolumeclaims', true, ['pvc']),
  core('PersistentVolume', 'persistentvolumes', false, ['pv']),
  core('Endpoints', 'endpoints', true, ['ep']),
  grouped('apps', 'v1', 'Deployment', 'deployments', true, ['deploy']),
  grouped('apps', 'v1', 'StatefulSet', 'statefulsets', true, ['sts']),
  grouped('apps', 'v1', 'DaemonSet', 'daemonsets', true, ['ds']),
  grouped('apps', 'v1', 'ReplicaSet', 'replicasets', true, ['rs']),
  grouped('batch', 'v1', 'Job', 'jobs'),
  grouped('batch', 'v1', 'CronJob', 'cronjobs', true, ['cj']),
  grouped('networking.k8s.io', 'v1', 'Ingress', 'ingresses', true, ['ing']),
  grouped('networking.k8s.io', 'v1', 'NetworkPolicy', 'networkpolicies', true, ['netpol']),
  grouped('rbac.authorization.k8s.io', 'v1', 'Role', 'roles'),
  grouped('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings'),
  grouped('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', false),
  grouped('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', false),
  grouped('storage.k8s.io', 'v1', 'StorageClass', 'storageclasses', false, ['sc']),
];

/** Kinds that are never stored: only `create` answers a review (authorization and authentication). */
export const REVIEW_KINDS: KindInfo[] = [
  grouped('authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', false),
  grouped('authorization.k8s.io', 'v1', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews', false),
  grouped('authorization.k8s.io', 'v1', 'SubjectAccessReview', 'subjectaccessreviews', false),
  grouped('authentication.k8s.io', 'v1', 'SelfSubjectReview', 'selfsubjectreviews', false),
];

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Kinds whose `.status` is a subresource: the main resource ignores status changes. */
const NO_STATUS = new Set([
  'ConfigMap',
  'Secret',
  'ServiceAccount',
  'Event',
  'Endpoints',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'StorageClass',
]);
/** What `kubectl get all` lists: the built-in kinds in the `all` category. */
const ALL_CATEGORY = new Set([
  'Pod',
  'Service',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
]);
/** Kinds with a `/scale` subresource (autoscaling/v1 Scale). */
export const SCALABLE = new Set(['Deployment', 'StatefulSet', 'ReplicaSet']);

export const hasStatusSubresource = (kind: KindInfo): boolean => !NO_STATUS.has(kind.kind);

export const isBuiltIn = (kind: KindInfo): boolean =>
  BUILT_IN_KINDS.some((k) => k.group === kind.group && k.version === kind.version && k.kind === kind.kind);

/** Kinds whose objects carry metadata.generation: the workload-like groups and custom resources, not core/v1 (in 1.31). */
export const tracksGeneration = (kind: KindInfo): boolean =>
  kind.group !== '' && kind.group !== 'rbac.authorization.k8s.io' && kind.group !== 'storage.k8s.io';

export const isReview = (kind: KindInfo): boolean => REVIEW_KINDS.includes(kind);

export const apiVersionOf = (k: KindInfo): string => (k.group ? `${k.group}/${k.version}` : k.version);

/** `deployments.apps` or `pods`: how the apiserver names a resource in messages. */
export const qualified = (k: KindInfo): string => (k.group ? `${k.plural}.${k.group}` : k.plural);

/**
 * Kubernetes' version priority (a CRD's versions are listed, and the first preferred, in it): GA
 * before beta before alpha, higher numbers first, then versions that are not Kubernetes-like, by name.
 */
export function byVersionPriority(a: string, b: string): number {
  const rank = (v: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0];
    const stability = m[2] === 'alpha' ? 2 : m[2] === 'beta' ? 1 : 0;
    return [stability, -Number(m[1]), -Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
  return a.localeCompare(b);
}

/** The kinds this server serves, built-in and added (CRDs). */
export class Kinds {
  readonly all: KindInfo[] = [...BUILT_IN_KINDS, ...REVIEW_KINDS];

  add(kind: KindInfo): void {
    if (!this.all.some((k) => k.group === kind.group && k.version === kind.version && k.kind === kind.kind)) {
      this.all.push(kind);
    }
  }

  of(apiVersion: string, kind: string): KindInfo {
    const info = this.all.find((k) => apiVersionOf(k) === apiVersion && k.kind === kind);
    if (!info) {
      throw new HttpError(
        404,
        'NotFound',
        `the server could not find the requested resource (${apiVersion} ${kind})`,
      );
    }
    return info;
  }

  find(apiVersion: string, kind: string): KindInfo | undefined {
    return this.all.find((k) => apiVersionOf(k) === apiVersion && k.kind === kind);
  }

  inVersion(group: string, version: string): KindInfo[] {
    return this.all.filter((k) => k.group === group && k.version === version);
  }

  groupList() {
    const groups = new Map<string, string[]>();
    for (const k of this.all) {
      if (!k.group) continue;
      const versions = groups.get(k.group) ?? [];
      if (!versions.includes(k.version)) versions.push(k.version);
      groups.set(k.group, versions.sort(byVersionPriority));
    }
    return {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [...groups].map(([name, versions]) => ({
        name,
        versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
        preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
      })),
    };
  }

  resourceList(group: string, version: string) {
    const resources: Record<string, unknown>[] = [];
    for (const k of this.inVersion(group, version)) {
      if (isReview(k)) {
        resources.push({
          name: k.plural,
          singularName: k.kind.toLowerCase(),
          namespaced: false,
          kind: k.kind,
          verbs: ['create'],
        });
        continue;
      }
      resources.push({
        name: k.plural,
        singularName: k.kind.toLowerCase(),
        namespaced: k.namespaced,
        kind: k.kind,
        verbs: VERBS,
        ...(k.shortNames ? { shortNames: k.shortNames } : {}),
        ...(ALL_CATEGORY.has(k.kind) && isBuiltIn(k) ? { categories: ['all'] } : {}),
      });
      if (k.kind === 'Pod') {
        resources.push({ name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
        resources.push({
          name: 'pods/exec',
          singularName: '',
          namespaced: true,
          kind: 'PodExecOptions',
          verbs: ['create', 'get'],
        });
      }
      if (hasStatusSubresource(k)) {
        resources.push({
          name: `${k.plural}/status`,
          singularName: '',
          namespaced: k.namespaced,
          kind: k.kind,
          verbs: ['get', 'patch', 'update'],
        });
      }
      if (SCALABLE.has(k.kind) && isBuiltIn(k)) {
        resources.push({
          name: `${k.plural}/scale`,
          singularName: '',
          namespaced: true,
          group: 'autoscaling',
          version: 'v1',
          kind: 'Scale',
          verbs: ['get', 'patch', 'update'],
        });
      }
    }
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources,
    };
  }
}
