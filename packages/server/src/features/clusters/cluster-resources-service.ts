import {
  type ClusterResourceDetail,
  type ClusterResourceKind,
  type ClusterResourceListQuery,
  type ClusterResourceQuery,
  type ClusterResourceSummary,
  type KubernetesObject,
} from '@slipway/contracts';
import { stringify } from 'yaml';
import { InputError } from '../../platform/errors.js';
import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { throughAgent } from './agent-errors.js';
import type { ClusterRow } from './clusters-store.js';

const MASK = '••••••••';

/** A Secret's values never leave the cluster through the browser: each is masked. */
export function masked(object: Record<string, unknown>): Record<string, unknown> {
  if (object.kind !== 'Secret') return object;
  const out = { ...object };
  for (const field of ['data', 'stringData'] as const) {
    const values = out[field];
    if (values && typeof values === 'object')
      out[field] = Object.fromEntries(Object.keys(values).map((k) => [k, MASK]));
  }
  return out;
}

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});

/** A short state for the list: a Pod's phase, a workload's ready/desired replicas, a Job's outcome. */
export function summaryStatus(object: Obj): string | null {
  const status = rec(object.status);
  const spec = rec(object.spec);
  switch (object.kind) {
    case 'Pod':
      return typeof status.phase === 'string' ? status.phase : null;
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return `${Number(status.readyReplicas ?? 0)}/${Number(spec.replicas ?? 1)}`;
    case 'DaemonSet':
      return `${Number(status.numberReady ?? 0)}/${Number(status.desiredNumberScheduled ?? 0)}`;
    case 'Job':
      return Number(status.succeeded ?? 0) > 0
        ? 'Complete'
        : Number(status.failed ?? 0) > 0
          ? 'Failed'
          : 'Running';
    case 'Namespace':
    case 'PersistentVolumeClaim':
      return typeof status.phase === 'string' ? status.phase : null;
    default:
      return null;
  }
}

function summary(object: KubernetesObject): ClusterResourceSummary {
  const meta = object.metadata as Obj;
  return {
    name: object.metadata.name,
    namespace: typeof meta.namespace === 'string' ? meta.namespace : null,
    createdAt: typeof meta.creationTimestamp === 'string' ? meta.creationTimestamp : null,
    status: summaryStatus(object),
  };
}

/**
 * The resources browser: the kinds a cluster serves (discovery), lists and single objects of any
 * kind, all through the cluster's agent. A limited agent's cluster is browsed only in its allowed
 * namespaces (the agent refuses the rest as well).
 */
export class ClusterResourcesService {
  constructor(private readonly gateway: AgentGateway) {}

  async kinds(cluster: ClusterRow): Promise<ClusterResourceKind[]> {
    const { resources } = await throughAgent(() =>
      this.gateway.request(cluster.id, { kind: 'resources', args: {} }),
    );
    return resources
      .filter((r) => r.verbs.includes('list') && !r.name.includes('/'))
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.apiVersion.localeCompare(b.apiVersion));
  }

  async list(cluster: ClusterRow, query: ClusterResourceListQuery): Promise<ClusterResourceSummary[]> {
    this.checkNamespace(cluster, query.namespace);
    const { items } = await throughAgent(() =>
      this.gateway.request(cluster.id, {
        kind: 'list',
        args: {
          apiVersion: query.apiVersion,
          kind: query.kind,
          ...(query.namespace ? { namespace: query.namespace } : {}),
          ...(query.labelSelector ? { labelSelector: query.labelSelector } : {}),
          limit: 500,
        },
      }),
    );
    return items
      .map(summary)
      .sort((a, b) => (a.namespace ?? '').localeCompare(b.namespace ?? '') || a.name.localeCompare(b.name));
  }

  async get(cluster: ClusterRow, query: ClusterResourceQuery): Promise<ClusterResourceDetail> {
    this.checkNamespace(cluster, query.namespace);
    const { object } = await throughAgent(() =>
      this.gateway.request(cluster.id, {
        kind: 'get',
        args: {
          apiVersion: query.apiVersion,
          kind: query.kind,
          name: query.name,
          ...(query.namespace ? { namespace: query.namespace } : {}),
        },
      }),
    );
    const shown = masked(object);
    const { managedFields: _m, ...metadata } = rec(shown.metadata);
    const readable = { ...shown, metadata };
    return { object: readable, yaml: stringify(readable, { lineWidth: 0 }) };
  }

  /** A limited agent's cluster: only its allowed namespaces, and a namespace must be named. */
  checkNamespace(cluster: ClusterRow, namespace: string | undefined, field = 'namespace'): void {
    if (!cluster.limitedAgentPermission) return;
    const allowed = Array.isArray(cluster.allowedNamespaces) ? (cluster.allowedNamespaces as string[]) : [];
    if (!namespace)
      throw new InputError(
        `${field}: this cluster's agent is limited to ${allowed.join(', ')}; name one of them`,
        [
          {
            path: `querystring.${field}`,
            message: `this cluster's agent is limited to ${allowed.join(', ')}`,
          },
        ],
      );
    if (!allowed.includes(namespace))
      throw new InputError(`${field}: ${namespace} is not an allowed namespace of this limited agent`, [
        {
          path: `querystring.${field}`,
          message: `${namespace} is not an allowed namespace of this limited agent`,
        },
      ]);
  }
}
