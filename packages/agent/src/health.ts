import type { HealthStatusCode, ResourceHealth } from '@slipway/contracts';

/**
 * Application health computed the way Argo CD does (gitops-engine pkg/health): one function per
 * kind, each taking the live object as JSON. Kinds without a rule have no health (null), as in
 * Argo CD, and do not count in the aggregate.
 */

type Obj = Record<string, unknown>;
interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const optNum = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const conditions = (status: Obj): Condition[] =>
  Array.isArray(status.conditions) ? (status.conditions as Condition[]) : [];

const h = (status: HealthStatusCode, message?: string): ResourceHealth =>
  message ? { status, message } : { status };

/** Argo CD's order, best to worst: the aggregate is the worst of its parts. */
export const HEALTH_ORDER: HealthStatusCode[] = [
  'healthy',
  'suspended',
  'progressing',
  'missing',
  'degraded',
  'unknown',
];

export function isWorse(current: HealthStatusCode, candidate: HealthStatusCode): boolean {
  return HEALTH_ORDER.indexOf(candidate) > HEALTH_ORDER.indexOf(current);
}

export function aggregateHealth(statuses: HealthStatusCode[]): HealthStatusCode {
  return statuses.reduce<HealthStatusCode>((worst, s) => (isWorse(worst, s) ? s : worst), 'healthy');
}

function generations(o: Obj) {
  return { generation: num(obj(o.metadata).generation), observed: num(obj(o.status).observedGeneration) };
}

export function deploymentHealth(o: Obj): ResourceHealth {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const name = str(obj(o.metadata).name);
  if (spec.paused === true) return h('suspended', 'Deployment is paused');
  const { generation, observed } = generations(o);
  if (generation <= observed) {
    const progressing = conditions(status).find((c) => c.type === 'Progressing');
    if (progressing?.reason === 'ProgressDeadlineExceeded') {
      return h('degraded', `Deployment "${name}" exceeded its progress deadline`);
    }
    const replicas = optNum(spec.replicas);
    const updated = num(status.updatedReplicas);
    const current = num(status.replicas);
    const available = num(status.availableReplicas);
    if (replicas !== undefined && updated < replicas) {
      return h(
        'progressing',
        `Waiting for rollout to finish: ${updated} out of ${replicas} new replicas have been updated...`,
      );
    }
    if (current > updated) {
      return h(
        'progressing',
        `Waiting for rollout to finish: ${current - updated} old replicas are pending termination...`,
      );
    }
    if (available < updated) {
      return h(
        'progressing',
        `Waiting for rollout to finish: ${available} of ${updated} updated replicas are available...`,
      );
    }
    return h('healthy');
  }
  return h(
    'progressing',
    'Waiting for rollout to finish: observed deployment generation less than desired generation',
  );
}

export function statefulSetHealth(o: Obj): ResourceHealth {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const { generation, observed } = generations(o);
  if (observed === 0 || generation > observed) {
    return h('progressing', 'Waiting for statefulset spec update to be observed...');
  }
  const replicas = optNum(spec.replicas);
  const ready = num(status.readyReplicas);
  if (replicas !== undefined && ready < replicas) {
    return h('progressing', `Waiting for ${replicas - ready} pods to be ready...`);
  }
  const strategy = obj(spec.updateStrategy);
  const rolling = obj(strategy.rollingUpdate);
  if (strategy.type === 'RollingUpdate' && optNum(rolling.partition) !== undefined) {
    const partition = num(rolling.partition);
    const updated = num(status.updatedReplicas);
    const expected = (replicas ?? 1) - partition;
    if (updated < expected) {
      return h(
        'progressing',
        `Waiting for partitioned roll out to finish: ${updated} out of ${expected} new pods have been updated...`,
      );
    }
    return h('healthy', `partitioned roll out complete: ${updated} new pods have been updated...`);
  }
  if (strategy.type === 'OnDelete') {
    return h('healthy', `statefulset has ${ready} ready pods`);
  }
  const updateRevision = str(status.updateRevision);
  const currentRevision = str(status.currentRevision);
  if (updateRevision !== currentRevision) {
    return h(
      'progressing',
      `waiting for statefulset rolling update to complete ${num(status.updatedReplicas)} pods at revision ${updateRevision}...`,
    );
  }
  return h(
    'healthy',
    `statefulset rolling update complete ${num(status.currentReplicas)} pods at revision ${currentRevision}...`,
  );
}

export function daemonSetHealth(o: Obj): ResourceHealth {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const name = str(obj(o.metadata).name);
  const { generation, observed } = generations(o);
  if (observed === 0 || generation > observed) {
    return h(
      'progressing',
      'Waiting for rollout to finish: observed daemon set generation less than desired generation',
    );
  }
  const desired = num(status.desiredNumberScheduled);
  const updated = num(status.updatedNumberScheduled);
  if (obj(spec.updateStrategy).type === 'OnDelete') {
    return h('healthy', `daemon set ${updated} out of ${desired} new pods have been updated`);
  }
  if (updated < desired) {
    return h(
      'progressing',
      `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...`,
    );
  }
  const available = num(status.numberAvailable);
  if (available < desired) {
    return h(
      'progressing',
      `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...`,
    );
  }
  return h('healthy');
}

export function replicaSetHealth(o: Obj): ResourceHealth {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const { generation, observed } = generations(o);
  if (generation <= observed) {
    const failure = conditions(status).find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    if (failure) return h('degraded', failure.message);
    const replicas = optNum(spec.replicas);
    const available = num(status.availableReplicas);
    if (replicas !== undefined && available < replicas) {
      return h(
        'progressing',
        `Waiting for rollout to finish: ${available} out of ${replicas} new replicas are available...`,
      );
    }
    return h('healthy');
  }
  return h(
    'progressing',
    'Waiting for rollout to finish: observed replica set generation less than desired generation',
  );
}

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  restartCount?: number;
  state?: {
    waiting?: { reason?: string; message?: string };
    terminated?: { reason?: string; message?: string; exitCode?: number };
  };
  lastState?: { terminated?: { reason?: string; message?: string; exitCode?: number } };
}

function failMessage(cs: ContainerStatus): string {
  const t = cs.state?.terminated;
  if (!t) return '';
  if (t.message) return t.message;
  if (t.reason === 'OOMKilled') return t.reason;
  if (t.exitCode) return `container "${cs.name ?? ''}" failed with exit code ${t.exitCode}`;
  return '';
}

export function podHealth(o: Obj): ResourceHealth {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const metadata = obj(o.metadata);
  const restartPolicy = str(spec.restartPolicy) || 'Always';
  const containerStatuses = [
    ...(Array.isArray(status.initContainerStatuses)
      ? (status.initContainerStatuses as ContainerStatus[])
      : []),
    ...(Array.isArray(status.containerStatuses) ? (status.containerStatuses as ContainerStatus[]) : []),
  ];
  // A pod that restarts its containers and is stuck waiting on an error is degraded at once.
  if (restartPolicy === 'Always') {
    for (const cs of containerStatuses) {
      const waiting = cs.state?.waiting;
      const reason = waiting?.reason ?? '';
      if (reason.startsWith('Err') || reason.endsWith('Error') || reason.endsWith('BackOff')) {
        return h('degraded', waiting?.message || reason);
      }
    }
  }
  const phase = str(status.phase);
  const message = str(status.message);
  switch (phase) {
    case 'Pending':
      return h('progressing', message);
    case 'Succeeded':
      return h('healthy', message);
    case 'Failed': {
      if (message) return h('degraded', message);
      for (const cs of containerStatuses) {
        const m = failMessage(cs);
        if (m) return h('degraded', m);
      }
      return h('degraded');
    }
    case 'Running': {
      if (metadata.deletionTimestamp) return h('progressing', 'Pending deletion');
      if (restartPolicy === 'Always') {
        const ready = conditions(status).find((c) => c.type === 'Ready');
        if (ready?.status === 'True') return h('healthy', message);
        // A container that keeps restarting after failures is degraded.
        for (const cs of containerStatuses) {
          const last = cs.lastState?.terminated;
          if (last && (cs.restartCount ?? 0) > 0 && !cs.ready) {
            return h(
              'degraded',
              last.message || `container "${cs.name ?? ''}" restarted ${cs.restartCount} times`,
            );
          }
        }
        return h('progressing', message);
      }
      // OnFailure and Never: running to completion.
      return h('progressing', message);
    }
    default:
      return h('unknown', message);
  }
}

export function serviceHealth(o: Obj): ResourceHealth {
  const spec = obj(o.spec);
  if (spec.type === 'LoadBalancer') {
    const ingress = obj(obj(o.status).loadBalancer).ingress;
    if (Array.isArray(ingress) && ingress.length > 0) return h('healthy');
    return h('progressing');
  }
  return h('healthy');
}

export function ingressHealth(o: Obj): ResourceHealth {
  const ingress = obj(obj(o.status).loadBalancer).ingress;
  if (Array.isArray(ingress) && ingress.length > 0) return h('healthy');
  return h('progressing');
}

export function pvcHealth(o: Obj): ResourceHealth {
  switch (str(obj(o.status).phase)) {
    case 'Lost':
      return h('degraded');
    case 'Pending':
      return h('progressing');
    case 'Bound':
      return h('healthy');
    default:
      return h('unknown');
  }
}

export function jobHealth(o: Obj): ResourceHealth {
  const status = obj(o.status);
  let failed = false;
  let complete = false;
  let suspended = false;
  let failMsg = '';
  let message = '';
  for (const c of conditions(status)) {
    switch (c.type) {
      case 'Failed':
        failed = true;
        complete = true;
        failMsg = c.message ?? '';
        break;
      case 'Complete':
        complete = true;
        message = c.message ?? '';
        break;
      case 'Suspended':
        complete = true;
        message = c.message ?? '';
        if (c.status === 'True') suspended = true;
        break;
    }
  }
  if (!complete) return h('progressing', message);
  if (failed) return h('degraded', failMsg);
  if (suspended) return h('suspended', message || 'Job is suspended');
  return h('healthy', message);
}

const RULES: Record<string, (o: Obj) => ResourceHealth> = {
  'apps/Deployment': deploymentHealth,
  'apps/StatefulSet': statefulSetHealth,
  'apps/DaemonSet': daemonSetHealth,
  'apps/ReplicaSet': replicaSetHealth,
  '/Pod': podHealth,
  '/Service': serviceHealth,
  'networking.k8s.io/Ingress': ingressHealth,
  'extensions/Ingress': ingressHealth,
  '/PersistentVolumeClaim': pvcHealth,
  'batch/Job': jobHealth,
};

/**
 * The health of one live object; `missing` when it does not exist, null for kinds Argo CD has
 * no rule for.
 */
export function resourceHealth(
  apiVersion: string,
  kind: string,
  live: Obj | null | undefined,
): ResourceHealth | null {
  const group = apiVersion.includes('/') ? apiVersion.split('/')[0]! : '';
  const rule = RULES[`${group}/${kind}`];
  if (!live) return h('missing');
  if (!rule) return null;
  try {
    return rule(live);
  } catch (error) {
    return h('unknown', error instanceof Error ? error.message : String(error));
  }
}
