import { parseAllDocuments } from 'yaml';
import type { KubernetesObject, ResourceRef } from '@slipway/contracts';
import { kubernetesSchemaProblem } from '../clusters/kubernetes-schemas.js';

export class ManifestError extends Error {}

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** The YAML documents as objects; each must name apiVersion, kind and metadata.name and fit its schema. */
export function parseManifests(text: string): KubernetesObject[] {
  const docs = parseAllDocuments(text);
  const objects: KubernetesObject[] = [];
  docs.forEach((doc, i) => {
    if (doc.errors.length > 0)
      throw new ManifestError(`manifests: document ${i + 1}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) return;
    const o = rec(value);
    const name = rec(o.metadata).name;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof name !== 'string' || !name)
      throw new ManifestError(`manifests: document ${i + 1} needs apiVersion, kind and metadata.name`);
    const problem = kubernetesSchemaProblem(o);
    if (problem) throw new ManifestError(`manifests: ${o.kind} ${name}: ${problem}`);
    objects.push(o as KubernetesObject);
  });
  if (objects.length === 0) throw new ManifestError('manifests: no Kubernetes objects given');
  return objects;
}

/** The pod templates' container lists of a workload (or a Pod's own). */
function containerLists(o: Obj): Obj[][] {
  return podSpecs(o).flatMap((p) =>
    ['containers', 'initContainers'].map((k) => (Array.isArray(p[k]) ? (p[k] as Obj[]) : [])),
  );
}

/** The pod specs of a workload (or a Pod's own). */
function podSpecs(o: Obj): Obj[] {
  const spec = rec(o.spec);
  if (o.kind === 'Pod') return [spec];
  if (o.kind === 'CronJob') return [rec(rec(rec(rec(spec.jobTemplate).spec).template).spec)];
  return [rec(rec(spec.template).spec)];
}

/** An image reference without its tag or digest. */
export function repositoryOf(image: string): string {
  const noDigest = image.split('@')[0]!;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

/** Sets `image:tag` (or `image@digest`) on every container running the image; answers how many. */
export function setImageTag(objects: KubernetesObject[], image: string, tag: string): number {
  const repo = repositoryOf(image.trim());
  const ref = tag.startsWith('sha256:')
    ? `${repo}@${tag}`
    : tag.startsWith('@')
      ? `${repo}${tag}`
      : `${repo}:${tag}`;
  let changed = 0;
  for (const o of objects)
    for (const list of containerLists(o))
      for (const c of list)
        if (typeof c.image === 'string' && repositoryOf(c.image) === repo) {
          c.image = ref;
          changed += 1;
        }
  return changed;
}

const WORKLOADS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod'];

/** The application's name: given, or its first workload's app.kubernetes.io/name label or name. */
export function appNameOf(objects: KubernetesObject[], given: string): string {
  if (given.trim()) return given.trim();
  const workload = objects.find((o) => WORKLOADS.includes(o.kind)) ?? objects[0]!;
  const label = rec(rec(workload.metadata).labels)['app.kubernetes.io/name'];
  return typeof label === 'string' && label ? label : workload.metadata.name;
}

/** The first image a workload runs, for the deployment record. */
export function firstImage(objects: KubernetesObject[]): string | null {
  for (const o of objects)
    for (const list of containerLists(o))
      for (const c of list) if (typeof c.image === 'string') return c.image;
  return null;
}

/** What was applied, as references for the health check. */
export function refsOf(
  objects: KubernetesObject[],
  namespace: string,
  clusterScoped: (kind: string) => boolean,
): ResourceRef[] {
  return objects.map((o) => ({
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    ...(clusterScoped(o.kind) ? {} : { namespace: o.metadata.namespace ?? namespace }),
  }));
}

const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
]);
export const isClusterScoped = (kind: string) => CLUSTER_SCOPED.has(kind);

/** The name of the pull secret Slipway applies for a workspace secret. */
export const pullSecretName = (secret: string) => `slipway-pull-${secret}`.slice(0, 253);

/**
 * Lets every workload pull with the workspace secret's registry credentials: a
 * `kubernetes.io/dockerconfigjson` Secret in each namespace a workload is applied to, named in
 * every pod spec's `imagePullSecrets` (once). Answers the Secrets to apply first; the workloads
 * are changed in place.
 */
export function withPullSecret(
  objects: KubernetesObject[],
  secret: string,
  dockerConfigJson: string,
  defaultNamespace: string,
): KubernetesObject[] {
  const name = pullSecretName(secret);
  const namespaces = new Set<string>();
  for (const o of objects) {
    const specs = podSpecs(o as unknown as Obj).filter((s) => Array.isArray(s.containers));
    if (specs.length === 0) continue;
    namespaces.add(String(rec(o.metadata).namespace ?? defaultNamespace));
    for (const s of specs) {
      const list = Array.isArray(s.imagePullSecrets) ? (s.imagePullSecrets as Obj[]) : [];
      if (!list.some((e) => e.name === name)) s.imagePullSecrets = [...list, { name }];
    }
  }
  const data = { '.dockerconfigjson': Buffer.from(dockerConfigJson, 'utf8').toString('base64') };
  return [...namespaces].map(
    (namespace) =>
      ({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/dockerconfigjson',
        metadata: { name, namespace, labels: { 'app.kubernetes.io/managed-by': 'slipway' } },
        data,
      }) as unknown as KubernetesObject,
  );
}
