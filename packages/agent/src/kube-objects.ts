import type { KubernetesObject, StorageClassInfo } from '@slipway/contracts';

/** Small readings of Kubernetes objects the agent's client reports: group, kind, CPU, storage classes. */

export const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');

export function withKind(object: KubernetesObject, apiVersion: string, kind: string): KubernetesObject {
  return { ...object, apiVersion: object.apiVersion ?? apiVersion, kind: object.kind ?? kind };
}

export function capacityCpu(node: KubernetesObject): string {
  const status = node.status as { capacity?: { cpu?: string } } | undefined;
  return status?.capacity?.cpu ?? '0';
}

/** Kubernetes CPU quantities: '4', '3500m', '0.5'. */
export function parseCpu(quantity: string): number {
  const q = quantity.trim();
  if (q.endsWith('m')) return Number(q.slice(0, -1)) / 1000;
  const n = Number(q);
  return Number.isFinite(n) ? n : 0;
}

export function storageClassInfo(sc: KubernetesObject): StorageClassInfo {
  const annotations = (sc.metadata.annotations as Record<string, string> | undefined) ?? {};
  const s = sc as KubernetesObject & {
    provisioner?: string;
    reclaimPolicy?: string;
    volumeBindingMode?: string;
  };
  return {
    name: sc.metadata.name,
    provisioner: s.provisioner ?? '',
    reclaimPolicy: s.reclaimPolicy ?? 'Delete',
    bindingMode: s.volumeBindingMode ?? 'Immediate',
    default:
      annotations['storageclass.kubernetes.io/is-default-class'] === 'true' ||
      annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true',
  };
}
