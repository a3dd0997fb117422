import { isObject, type KindInfo, type KubeObject } from './types.js';

/** meta.k8s.io/v1 Table output, with the columns the apiserver's printers give the built-in kinds. */

interface Column {
  name: string;
  type: 'string' | 'integer' | 'date' | 'boolean';
  format?: string;
  priority?: number;
  cell: (o: KubeObject) => string | number;
}

/** The apiserver's duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (h < 24 * 8) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const age = (o: KubeObject) =>
  o.metadata.creationTimestamp
    ? humanDuration(Date.now() - Date.parse(String(o.metadata.creationTimestamp)))
    : '<unknown>';
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? (v as Record<string, unknown>[]) : [];
const containers = (o: KubeObject) => list(obj(obj(obj(o.spec).template).spec).containers);
const selector = (o: KubeObject) => {
  const sel = obj(obj(o.spec).selector);
  const labels = isObject(sel.matchLabels) ? sel.matchLabels : sel;
  return (
    Object.entries(labels)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',') || '<none>'
  );
};

const NAME: Column = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata.name };
const AGE: Column = { name: 'Age', type: 'string', cell: age };
const CONTAINERS: Column = {
  name: 'Containers',
  type: 'string',
  priority: 1,
  cell: (o) =>
    containers(o)
      .map((c) => String(c.name))
      .join(','),
};
const IMAGES: Column = {
  name: 'Images',
  type: 'string',
  priority: 1,
  cell: (o) =>
    containers(o)
      .map((c) => String(c.image))
      .join(','),
};
const SELECTOR: Column = { name: 'Selector', type: 'string', priority: 1, cell: selector };

function podStatus(o: KubeObject): string {
  const status = obj(o.status);
  let reason = String(status.reason ?? status.phase ?? 'Pending');
  for (const c of list(status.containerStatuses)) {
    const state = obj(c.state);
    if (isObject(state.waiting) && state.waiting.reason) reason = String(state.waiting.reason);
    else if (isObject(state.terminated)) {
      const t = state.terminated;
      reason = t.reason
        ? String(t.reason)
        : t.signal
          ? `Signal:${String(t.signal)}`
          : `ExitCode:${String(t.exitCode)}`;
    }
  }
  if (o.metadata.deletionTimestamp) reason = status.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

const POD: Column[] = [
  NAME,
  {
    name: 'Ready',
    type: 'string',
    cell: (o) => {
      const statuses = list(obj(o.status).containerStatuses);
      const total = list(obj(o.spec).containers).length;
      return `${statuses.filter((c) => c.ready === true).length}/${total}`;
    },
  },
  { name: 'Status', type: 'string', cell: podStatus },
  {
    name: 'Restarts',
    type: 'string',
    cell: (o) => list(obj(o.status).containerStatuses).reduce((n, c) => n + num(c.restartCount), 0),
  },
  AGE,
  { name: 'IP', type: 'string', priority: 1, cell: (o) => String(obj(o.status).podIP ?? '<none>') },
  { name: 'Node', type: 'string', priority: 1, cell: (o) => String(obj(o.spec).nodeName ?? '<none>') },
  {
    name: 'Nominated Node',
    type: 'string',
    priority: 1,
    cell: (o) => String(obj(o.status).nominatedNodeName ?? '<none>'),
  },
  { name: 'Readiness Gates', type: 'string', priority: 1, cell: () => '<none>' },
];

const replicasReady = (o: KubeObject) =>
  `${num(obj(o.status).readyReplicas)}/${num(obj(o.spec).replicas ?? 1)}`;

const COLUMNS: Record<string, Column[]> = {
  'v1/Pod': POD,
  'apps/v1/Deployment': [
    NAME,
    { name: 'Ready', type: 'string', cell: replicasReady },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(obj(o.status).updatedReplicas) },
    { name: 'Available', type: 'integer', cell: (o) => num(obj(o.status).availableReplicas) },
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  'apps/v1/ReplicaSet': [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => num(obj(o.spec).replicas ?? 1) },
    { name: 'Current', type: 'integer', cell: (o) => num(obj(o.status).replicas) },
    { name: 'Ready', type: 'integer', cell: (o) => num(obj(o.status).readyReplicas) },
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  'apps/v1/StatefulSet': [
    NAME,
    { name: 'Ready', type: 'string', cell: replicasReady },
    AGE,
    CONTAINERS,
    IMAGES,
  ],
  'v1/Namespace': [
    NAME,
    { name: 'Status', type: 'string', cell: (o) => String(obj(o.status).phase ?? 'Active') },
    AGE,
  ],
  'v1/ConfigMap': [
    NAME,
    {
      name: 'Data',
      type: 'integer',
      cell: (o) => Object.keys(obj(o.data)).length + Object.keys(obj(o.binaryData)).length,
    },
    AGE,
  ],
  'v1/Secret': [
    NAME,
    { name: 'Type', type: 'string', cell: (o) => String(o.type ?? 'Opaque') },
    { name: 'Data', type: 'integer', cell: (o) => Object.keys(obj(o.data)).length },
    AGE,
  ],
  'v1/Service': [
    NAME,
    { name: 'Type', type: 'string', cell: (o) => String(obj(o.spec).type ?? 'ClusterIP') },
    { name: 'Cluster-IP', type: 'string', cell: (o) => String(obj(o.spec).clusterIP ?? '<none>') },
    { name: 'External-IP', type: 'string', cell: () => '<none>' },
    {
      name: 'Port(s)',
      type: 'string',
      cell: (o) =>
        list(obj(o.spec).ports)
          .map((p) => `${String(p.port)}/${String(p.protocol ?? 'TCP')}`)
          .join(',') || '<none>',
    },
    AGE,
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      cell: (o) =>
        Object.entries(obj(obj(o.spec).selector))
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',') || '<none>',
    },
  ],
  'batch/v1/Job': [
    NAME,
    {
      name: 'Status',
      type: 'string',
      cell: (o) => {
        const conditions = list(obj(o.status).conditions)
          .filter((c) => c.status === 'True')
          .map((c) => String(c.type));
        return conditions.includes('Complete')
          ? 'Complete'
          : conditions.includes('Failed')
            ? 'Failed'
            : 'Running';
      },
    },
    {
      name: 'Completions',
      type: 'string',
      cell: (o) => `${num(obj(o.status).succeeded)}/${num(obj(o.spec).completions ?? 1)}`,
    },
    {
      name: 'Duration',
      type: 'string',
      cell: (o) => {
        const s = obj(o.status);
        if (!s.startTime) return '';
        const end = s.completionTime ? Date.parse(String(s.completionTime)) : Date.now();
        return humanDuration(end - Date.parse(String(s.startTime)));
      },
    },
    AGE,
  ],
  'v1/Node': [
    NAME,
    {
      name: 'Status',
      type: 'string',
      cell: (o) =>
        list(obj(o.status).conditions).some((c) => c.type === 'Ready' && c.status === 'True')
          ? 'Ready'
          : 'NotReady',
    },
    { name: 'Roles', type: 'string', cell: () => '<none>' },
    AGE,
    {
      name: 'Version',
      type: 'string',
      cell: (o) => String(obj(obj(o.status).nodeInfo).kubeletVersion ?? ''),
    },
  ],
};

/** More built-in kinds, with the columns of the apiserver's printers (pkg/printers/internalversion). */
const MORE_COLUMNS: Record<string, Column[]> = {
  'apps/v1/DaemonSet': [
    NAME,
    { name: 'Desired', type: 'integer', cell: (o) => num(obj(o.status).desiredNumberScheduled) },
    { name: 'Current', type: 'integer', cell: (o) => num(obj(o.status).currentNumberScheduled) },
    { name: 'Ready', type: 'integer', cell: (o) => num(obj(o.status).numberReady) },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(obj(o.status).updatedNumberScheduled) },
    { name: 'Available', type: 'integer', cell: (o) => num(obj(o.status).numberAvailable) },
    {
      name: 'Node Selector',
      type: 'string',
      cell: (o) =>
        Object.entries(obj(obj(obj(obj(o.spec).template).spec).nodeSelector))
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',') || '<none>',
    },
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  'batch/v1/CronJob': [
    NAME,
    { name: 'Schedule', type: 'string', cell: (o) => String(obj(o.spec).schedule ?? '') },
    { name: 'Timezone', type: 'string', cell: (o) => String(obj(o.spec).timeZone ?? '<none>') },
    { name: 'Suspend', type: 'boolean', cell: (o) => (obj(o.spec).suspend ? 'True' : 'False') },
    { name: 'Active', type: 'integer', cell: (o) => list(obj(o.status).active).length },
    {
      name: 'Last Schedule',
      type: 'string',
      cell: (o) => {
        const last = obj(o.status).lastScheduleTime;
        return last ? humanDuration(Date.now() - Date.parse(String(last))) : '<none>';
      },
    },
    AGE,
  ],
  'networking.k8s.io/v1/Ingress': [
    NAME,
    { name: 'Class', type: 'string', cell: (o) => String(obj(o.spec).ingressClassName ?? '<none>') },
    {
      name: 'Hosts',
      type: 'string',
      cell: (o) =>
        list(obj(o.spec).rules)
          .map((r) => String(r.host ?? '*'))
          .join(',') || '*',
    },
    { name: 'Address', type: 'string', cell: () => '' },
    { name: 'Ports', type: 'string', cell: (o) => (list(obj(o.spec).tls).length > 0 ? '80, 443' : '80') },
    AGE,
  ],
  'v1/ServiceAccount': [NAME, { name: 'Secrets', type: 'integer', cell: (o) => list(o.secrets).length }, AGE],
  'v1/PersistentVolumeClaim': [
    NAME,
    { name: 'Status', type: 'string', cell: (o) => String(obj(o.status).phase ?? 'Pending') },
    { name: 'Volume', type: 'string', cell: (o) => String(obj(o.spec).volumeName ?? '') },
    { name: 'Capacity', type: 'string', cell: (o) => String(obj(obj(o.status).capacity).storage ?? '') },
    { name: 'Access Modes', type: 'string', cell: () => '' },
    { name: 'StorageClass', type: 'string', cell: (o) => String(obj(o.spec).storageClassName ?? '<unset>') },
    { name: 'VolumeAttributesClass', type: 'string', cell: () => '<unset>' },
    AGE,
  ],
  'v1/Endpoints': [
    NAME,
    {
      name: 'Endpoints',
      type: 'string',
      cell: (o) =>
        list(o.subsets)
          .flatMap((s) =>
            list(s.addresses).flatMap((a) => list(s.ports).map((p) => `${String(a.ip)}:${String(p.port)}`)),
          )
          .join(',') || '<none>',
    },
    AGE,
  ],
  'v1/Event': [
    {
      name: 'Last Seen',
      type: 'string',
      cell: (o) => {
        const t = o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp;
        return t ? humanDuration(Date.now() - Date.parse(String(t))) : '<unknown>';
      },
    },
    { name: 'Type', type: 'string', cell: (o) => String(o.type ?? '') },
    { name: 'Reason', type: 'string', cell: (o) => String(o.reason ?? '') },
    {
      name: 'Object',
      type: 'string',
      cell: (o) =>
        `${String(obj(o.involvedObject).kind ?? '').toLowerCase()}/${String(obj(o.involvedObject).name ?? '')}`,
    },
    { name: 'Message', type: 'string', cell: (o) => String(o.message ?? '').trim() },
  ],
};

function columnsOf(kind: KindInfo): Column[] {
  const key = `${kind.group ? `${kind.group}/` : ''}${kind.version}/${kind.kind}`;
  return COLUMNS[key] ?? MORE_COLUMNS[key] ?? [NAME, AGE];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

function partial(o: KubeObject): Record<string, unknown> {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
}

/** A Table of objects (the items of a list, or one object); `headers` false leaves the column definitions out. */
export function toTable(
  kind: KindInfo,
  objects: KubeObject[],
  resourceVersion: string,
  include: IncludeObject,
  headers = true,
  listMeta: Record<string, unknown> = {},
): Record<string, unknown> {
  const columns = columnsOf(kind);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { ...listMeta, resourceVersion },
    columnDefinitions: headers
      ? columns.map((c) => ({
          name: c.name,
          type: c.type,
          format: c.format ?? '',
          description: '',
          priority: c.priority ?? 0,
        }))
      : [],
    rows: objects.map((o) => ({
      cells: columns.map((c) => c.cell(o)),
      ...(include === 'None' ? {} : { object: include === 'Object' ? o : partial(o) }),
    })),
  };
}

/** Whether an Accept header asks for a Table first (before plain JSON). */
export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false;
  const first = accept.split(',')[0]!.replace(/\s/g, '');
  return (
    first.startsWith('application/json') && first.includes('as=Table') && first.includes('g=meta.k8s.io')
  );
}
