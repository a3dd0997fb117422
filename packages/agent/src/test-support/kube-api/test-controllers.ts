import { createHash, randomBytes } from 'node:crypto';
import type { Kinds } from './kinds.js';
import type { ObjectStore } from './store.js';
import { TestKubelet } from './test-kubelet.js';
import { obj, now, recordEvent, safe } from './test-events.js';
import { clone, type KubeObject } from './types.js';

/**
 * TEST CONTROLLERS, not Kubernetes: small stand-ins for the Deployment, ReplicaSet, StatefulSet
 * and Job controllers, the scheduler and the kubelet, so that rollouts finish in tests. Opt-in
 * (`KubeApiServer.start({ controllers: true })`). A Deployment gets a ReplicaSet per pod template
 * (`deployment.kubernetes.io/revision`), ReplicaSets and StatefulSets get their pods, pods are
 * scheduled on the first node and run ready at once (containers never exit), a Job's pods
 * succeed at once and the Job completes. Status fields follow the real controllers'.
 */

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
  private readonly kubelet: TestKubelet;

  constructor(
    private readonly store: ObjectStore,
    private readonly kinds: Kinds,
  ) {
    this.kubelet = new TestKubelet({
      nodes: () => this.all('v1', 'Node'),
      write: (o) => this.write(o),
      event: (about, reason, message, component) => this.event(about, reason, message, component),
    });
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
      if (!p.metadata.deletionTimestamp) this.kubelet.run(p);
      else if (Number(p.metadata.deletionGracePeriodSeconds ?? 0) > 0) this.kubelet.kill(p);
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
      this.event(
        d,
        'ScalingReplicaSet',
        `Scaled up replica set ${current.metadata.name} from 0 to ${desired}`,
        'deployment-controller',
      );
      return;
    }
    const scale = (rs: KubeObject, to: number) => {
      const from = Number(obj(rs.spec).replicas ?? 0);
      if (from === to) return;
      this.write({ ...clone(rs), spec: { ...obj(rs.spec), replicas: to } });
      const direction = to > from ? 'up' : 'down';
      this.event(
        d,
        'ScalingReplicaSet',
        `Scaled ${direction} replica set ${rs.metadata.name} from ${from} to ${to}`,
        'deployment-controller',
      );
    };
    scale(current, desired);
    for (const old of owned) if (old !== current) scale(old, 0);
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
        const created =
          kind === 'StatefulSet'
            ? `create Pod ${name} in StatefulSet ${owner.metadata.name} successful`
            : `Created pod: ${name}`;
        this.event(
          owner,
          'SuccessfulCreate',
          created,
          kind === 'StatefulSet' ? 'statefulset-controller' : 'replicaset-controller',
        );
      }
      return;
    }
    if (pods.length > desired) {
      for (const p of pods.slice(desired)) {
        this.store.remove(this.kinds.of('v1', 'Pod'), p);
        const deleted =
          kind === 'StatefulSet'
            ? `delete Pod ${p.metadata.name} in StatefulSet ${owner.metadata.name} successful`
            : `Deleted pod: ${p.metadata.name}`;
        this.event(
          owner,
          'SuccessfulDelete',
          deleted,
          kind === 'StatefulSet' ? 'statefulset-controller' : 'replicaset-controller',
        );
      }
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
      this.event(job, 'Completed', 'Job completed', 'job-controller');
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
      const name = `${job.metadata.name}-${safe(randomBytes(5), 5)}`;
      this.write({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: job.metadata.namespace!,
          labels,
          ownerReferences: [ownerRef(job)],
        },
        spec: clone(obj(template.spec)),
        status: { phase: 'Pending', qosClass: 'BestEffort' },
      });
      this.event(job, 'SuccessfulCreate', `Created pod: ${name}`, 'job-controller');
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

  private event(about: KubeObject, reason: string, message: string, component: string): void {
    recordEvent(
      this.store,
      this.kinds,
      this.store.lookup(
        this.kinds.of(about.apiVersion, about.kind),
        about.metadata.namespace,
        about.metadata.name,
      ) ?? about,
      reason,
      message,
      component,
    );
  }
}
