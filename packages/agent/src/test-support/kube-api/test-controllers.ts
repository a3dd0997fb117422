import { createHash, randomBytes } from 'node:crypto';
import type { Kinds } from './kinds.js';
import type { ObjectStore } from './store.js';
import { clone, isObject, type KubeObject } from './types.js';

/**
 * TEST CONTROLLERS, not Kubernetes: small stand-ins for the Deployment, ReplicaSet, StatefulSet
 * and Job controllers, the scheduler and the kubelet, so that rollouts finish in tests. Opt-in
 * (`KubeApiServer.start({ controllers: true })`). A Deployment gets a ReplicaSet per pod template
 * (`deployment.kubernetes.io/revision`), ReplicaSets and StatefulSets get their pods, pods are
 * scheduled on the first node and run ready at once (containers never exit), a Job's pods
 * succeed at once and the Job completes. Status fields follow the real controllers'.
 */

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const safe = (bytes: Buffer, n: number) =>
  [...bytes.subarray(0, n)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Owner = KubeObject;

function ownerRef(owner: Owner) {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: String(owner.metadata.uid),
    controller: true,
    blockOwnerDeletion: true,
  };
}

const ownedBy = (o: KubeObject, owner: Owner) =>
  ((o.metadata.ownerReferences as { uid: string; controller?: boolean }[] | undefined) ?? []).some(
    (r) => r.uid === owner.metadata.uid && r.controller,
  );

function condition(type: string, status: string, reason: string, message: string) {
  const t = now();
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message };
}

export class TestControllers {
  private timer: NodeJS.Timeout | undefined;
  private readonly stopListening: () => void;

  constructor(
    private readonly store: ObjectStore,
    private readonly kinds: Kinds,
  ) {
    this.stopListening = store.onChange(() => this.wake());
    this.wake();
  }

  stop(): void {
    this.stopListening();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private wake(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.pass();
    }, 10);
  }

  private all(apiVersion: string, kind: string): KubeObject[] {
    return this.store.selected(this.kinds.of(apiVersion, kind));
  }

  private write(object: KubeObject): void {
    this.store.write(this.kinds.of(object.apiVersion, object.kind), object);
  }

  private setStatus(object: KubeObject, status: Record<string, unknown>): void {
    if (same(object.status, status)) return;
    this.write({ ...clone(object), status });
  }

  private pass(): void {
    for (const d of this.all('apps/v1', 'Deployment')) if (!d.metadata.deletionTimestamp) this.deployment(d);
    for (const rs of this.all('apps/v1', 'ReplicaSet'))
      if (!rs.metadata.deletionTimestamp) this.replicas(rs, 'ReplicaSet');
    for (const s of this.all('apps/v1', 'StatefulSet'))
      if (!s.metadata.deletionTimestamp) this.replicas(s, 'StatefulSet');
    for (const j of this.all('batch/v1', 'Job')) if (!j.metadata.deletionTimestamp) this.job(j);
    for (const p of this.all('v1', 'Pod')) {
      if (!p.metadata.deletionTimestamp) this.kubelet(p);
      else if (Number(p.metadata.deletionGracePeriodSeconds ?? 0) > 0) this.kill(p);
    }
  }

  private deployment(d: KubeObject): void {
    const spec = obj(d.spec);
    const template = obj(spec.template);
    const hash = safe(createHash('sha256').update(JSON.stringify(template)).digest(), 10);
    const owned = this.all('apps/v1', 'ReplicaSet').filter(
      (rs) => rs.metadata.namespace === d.metadata.namespace && ownedBy(rs, d),
    );
    const revisionOf = (rs: KubeObject) =>
      Number(obj(rs.metadata.annotations)['deployment.kubernetes.io/revision'] ?? 0);
    const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
    let current = owned.find((rs) => obj(rs.metadata.labels)['pod-template-hash'] === hash);
    const revision = current ? revisionOf(current) : Math.max(0, ...owned.map(revisionOf)) + 1;
    if (!current) {
      const labels = { ...obj(obj(template.metadata).labels), 'pod-template-hash': hash };
      const selector = obj(spec.selector);
      current = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `${d.metadata.name}-${hash}`,
          namespace: d.metadata.namespace!,
          labels,
          annotations: {
            'deployment.kubernetes.io/desired-replicas': String(desired),
            'deployment.kubernetes.io/max-replicas': String(desired + 1),
            'deployment.kubernetes.io/revision': String(revision),
          },
          ownerReferences: [ownerRef(d)],
        },
        spec: {
          replicas: desired,
          selector: { ...selector, matchLabels: { ...obj(selector.matchLabels), 'pod-template-hash': hash } },
          template: { ...template, metadata: { ...obj(template.metadata), labels } },
        },
      };
      this.write(current);
      return;
    }
    if (obj(current.spec).replicas !== desired)
      this.write({ ...clone(current), spec: { ...obj(current.spec), replicas: desired } });
    for (const old of owned) {
      if (old !== current && obj(old.spec).replicas !== 0)
        this.write({ ...clone(old), spec: { ...obj(old.spec), replicas: 0 } });
    }
    const annotations = obj(d.metadata.annotations);
    if (annotations['deployment.kubernetes.io/revision'] !== String(revision)) {
      this.write({
        ...clone(d),
        metadata: {
          ...d.metadata,
          annotations: { ...annotations, 'deployment.kubernetes.io/revision': String(revision) },
        },
      });
      return;
    }
    const cs = obj(current.status);
    const total = owned.reduce((n, rs) => n + Number(obj(rs.status).replicas ?? 0), 0);
    const updated = Number(cs.replicas ?? 0);
    const ready = owned.reduce((n, rs) => n + Number(obj(rs.status).readyReplicas ?? 0), 0);
    const available = owned.reduce((n, rs) => n + Number(obj(rs.status).availableReplicas ?? 0), 0);
    const done = updated === desired && total === desired && available === desired;
    const previous = obj(d.status);
    const keep = (c: Record<string, unknown>) => {
      const before = ((previous.conditions as Record<string, unknown>[] | undefined) ?? []).find(
        (p) => p.type === c.type,
      );
      return before && before.status === c.status && before.reason === c.reason ? before : c;
    };
    const rsName = current.metadata.name;
    const status: Record<string, unknown> = {
      observedGeneration: d.metadata.generation,
      replicas: total,
      updatedReplicas: updated,
      readyReplicas: ready,
      availableReplicas: available,
      ...(total - available > 0 ? { unavailableReplicas: total - available } : {}),
      conditions: [
        keep(
          available >= desired
            ? condition(
                'Available',
                'True',
                'MinimumReplicasAvailable',
                'Deployment has minimum availability.',
              )
            : condition(
                'Available',
                'False',
                'MinimumReplicasUnavailable',
                'Deployment does not have minimum availability.',
              ),
        ),
        keep(
          done
            ? condition(
                'Progressing',
                'True',
                'NewReplicaSetAvailable',
                `ReplicaSet "${rsName}" has successfully progressed.`,
              )
            : condition('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${rsName}" is progressing.`),
        ),
      ],
    };
    for (const k of ['readyReplicas', 'availableReplicas', 'updatedReplicas', 'replicas'])
      if (status[k] === 0) delete status[k];
    this.setStatus(d, status);
  }

  /** ReplicaSet or StatefulSet: make or remove pods, then report their readiness. */
  private replicas(owner: KubeObject, kind: 'ReplicaSet' | 'StatefulSet'): void {
    const spec = obj(owner.spec);
    const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const pods = this.all('v1', 'Pod').filter(
      (p) =>
        p.metadata.namespace === owner.metadata.namespace &&
        ownedBy(p, owner) &&
        !p.metadata.deletionTimestamp,
    );
    const template = obj(spec.template);
    if (pods.length < desired) {
      const names = new Set(pods.map((p) => p.metadata.name));
      for (let i = 0; names.size < desired && i < desired + 100; i++) {
        const name =
          kind === 'StatefulSet'
            ? `${owner.metadata.name}-${i}`
            : `${owner.metadata.name}-${safe(randomBytes(5), 5)}`;
        if (names.has(name)) continue;
        names.add(name);
        const labels = {
          ...obj(obj(template.metadata).labels),
          ...(kind === 'StatefulSet' ? { 'statefulset.kubernetes.io/pod-name': name } : {}),
        };
        this.write({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            ...obj(template.metadata),
            name,
            namespace: owner.metadata.namespace!,
            labels,
            ownerReferences: [ownerRef(owner)],
          },
          spec: clone(obj(template.spec)),
          status: { phase: 'Pending', qosClass: 'BestEffort' },
        });
      }
      return;
    }
    if (pods.length > desired) {
      for (const p of pods.slice(desired)) this.store.remove(this.kinds.of('v1', 'Pod'), p);
      return;
    }
    const ready = pods.filter((p) =>
      ((obj(p.status).conditions as Record<string, unknown>[] | undefined) ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      ),
    ).length;
    const status: Record<string, unknown> =
      kind === 'ReplicaSet'
        ? {
            replicas: pods.length,
            fullyLabeledReplicas: pods.length,
            readyReplicas: ready,
            availableReplicas: ready,
            observedGeneration: owner.metadata.generation,
          }
        : {
            replicas: pods.length,
            readyReplicas: ready,
            currentReplicas: pods.length,
            updatedReplicas: pods.length,
            availableReplicas: ready,
            observedGeneration: owner.metadata.generation,
            currentRevision: `${owner.metadata.name}-1`,
            updateRevision: `${owner.metadata.name}-1`,
            collisionCount: 0,
          };
    for (const k of ['readyReplicas', 'availableReplicas', 'fullyLabeledReplicas'])
      if (status[k] === 0) delete status[k];
    this.setStatus(owner, status);
  }

  private job(job: KubeObject): void {
    const status = obj(job.status);
    if (
      ((status.conditions as Record<string, unknown>[] | undefined) ?? []).some(
        (c) => c.type === 'Complete' || c.type === 'Failed',
      )
    )
      return;
    const spec = obj(job.spec);
    const completions = typeof spec.completions === 'number' ? spec.completions : 1;
    const pods = this.all('v1', 'Pod').filter(
      (p) => p.metadata.namespace === job.metadata.namespace && ownedBy(p, job),
    );
    const succeeded = pods.filter((p) => obj(p.status).phase === 'Succeeded').length;
    const started = (status.startTime as string | undefined) ?? now();
    if (succeeded >= completions) {
      const t = now();
      this.setStatus(job, {
        startTime: started,
        completionTime: t,
        succeeded,
        ready: 0,
        terminating: 0,
        uncountedTerminatedPods: {},
        conditions: [
          {
            type: 'SuccessCriteriaMet',
            status: 'True',
            lastProbeTime: t,
            lastTransitionTime: t,
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
          },
          {
            type: 'Complete',
            status: 'True',
            lastProbeTime: t,
            lastTransitionTime: t,
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
          },
        ],
      });
      return;
    }
    const running = pods.filter((p) => !['Succeeded', 'Failed'].includes(String(obj(p.status).phase)));
    if (running.length === 0 && pods.length < completions) {
      const template = obj(spec.template);
      const uid = String(job.metadata.uid);
      const labels = {
        ...obj(obj(template.metadata).labels),
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': job.metadata.name,
        'controller-uid': uid,
        'job-name': job.metadata.name,
      };
      this.write({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${job.metadata.name}-${safe(randomBytes(5), 5)}`,
          namespace: job.metadata.namespace!,
          labels,
          ownerReferences: [ownerRef(job)],
        },
        spec: clone(obj(template.spec)),
        status: { phase: 'Pending', qosClass: 'BestEffort' },
      });
    }
    this.setStatus(job, {
      ...status,
      startTime: started,
      active: running.length,
      ready: 0,
      terminating: 0,
      uncountedTerminatedPods: {},
    });
  }

  /** The scheduler and kubelet: a pending pod is bound to the first node and runs ready; a Job's pod then succeeds. */
  private kubelet(pod: KubeObject): void {
    const status = obj(pod.status);
    const phase = status.phase ?? 'Pending';
    if (phase !== 'Pending' && !(phase === 'Running' && this.isJobPod(pod))) return;
    const spec = obj(pod.spec);
    const containers = (spec.containers as { name: string; image?: string }[] | undefined) ?? [];
    const t = now();
    const node = String(spec.nodeName ?? this.all('v1', 'Node')[0]?.metadata.name ?? 'node-1');
    const jobDone = phase === 'Running';
    const base = {
      name: '',
      image: '',
      imageID: '',
      restartCount: 0,
      started: !jobDone,
      ready: !jobDone,
      containerID: `containerd://${safe(randomBytes(12), 12)}`,
    };
    const next = {
      ...clone(pod),
      spec: { ...spec, nodeName: node },
      status: {
        phase: jobDone ? 'Succeeded' : 'Running',
        conditions: [
          { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: t },
          { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: t },
          {
            type: 'Ready',
            status: jobDone ? 'False' : 'True',
            lastProbeTime: null,
            lastTransitionTime: t,
            ...(jobDone ? { reason: 'PodCompleted' } : {}),
          },
          {
            type: 'ContainersReady',
            status: jobDone ? 'False' : 'True',
            lastProbeTime: null,
            lastTransitionTime: t,
            ...(jobDone ? { reason: 'PodCompleted' } : {}),
          },
          { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: t },
        ],
        hostIP: '10.0.0.1',
        podIP: `10.244.0.${(Number.parseInt(String(pod.metadata.uid).slice(0, 2), 16) % 250) + 2}`,
        startTime: status.startTime ?? t,
        qosClass: status.qosClass ?? 'BestEffort',
        containerStatuses: containers.map((c) => ({
          ...base,
          name: c.name,
          image: c.image ?? '',
          state: jobDone
            ? {
                terminated: {
                  exitCode: 0,
                  reason: 'Completed',
                  startedAt: status.startTime ?? t,
                  finishedAt: t,
                },
              }
            : { running: { startedAt: t } },
        })),
      },
    };
    this.write(next as KubeObject);
  }

  /** The kubelet stops a terminating pod's containers at once and lets it go (grace period 0). */
  private kill(pod: KubeObject): void {
    const status = obj(pod.status);
    const t = now();
    const containerStatuses = ((status.containerStatuses as Record<string, unknown>[] | undefined) ?? []).map(
      (c) => ({
        ...c,
        ready: false,
        started: false,
        state: {
          terminated: {
            exitCode: 0,
            reason: 'Completed',
            startedAt: obj(obj(c.state).running).startedAt ?? t,
            finishedAt: t,
          },
        },
      }),
    );
    const next = clone(pod);
    next.metadata.deletionGracePeriodSeconds = 0;
    next.status = { ...status, containerStatuses };
    this.write(next);
  }

  private isJobPod(pod: KubeObject): boolean {
    return ((pod.metadata.ownerReferences as { kind: string }[] | undefined) ?? []).some(
      (r) => r.kind === 'Job',
    );
  }
}
