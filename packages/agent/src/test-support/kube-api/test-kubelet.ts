import { randomBytes } from 'node:crypto';
import { now, obj, safe } from './test-events.js';
import { clone, type KubeObject } from './types.js';

/**
 * THE TEST KUBELET (and scheduler), one of the test controllers: not Kubernetes. A pending pod is
 * bound to the first node and runs ready at once; a Job's running pod then succeeds; a pod being
 * deleted gracefully has its containers stopped and is let go.
 */
export class TestKubelet {
  constructor(
    private readonly deps: {
      nodes(): KubeObject[];
      write(object: KubeObject): void;
      event(about: KubeObject, reason: string, message: string, component: string): void;
    },
  ) {}

  /** The scheduler and kubelet: a pending pod is bound to the first node and runs ready; a Job's pod then succeeds. */
  run(pod: KubeObject): void {
    const status = obj(pod.status);
    const phase = status.phase ?? 'Pending';
    if (phase !== 'Pending' && !(phase === 'Running' && this.isJobPod(pod))) return;
    const spec = obj(pod.spec);
    const containers = (spec.containers as { name: string; image?: string }[] | undefined) ?? [];
    const t = now();
    const node = String(spec.nodeName ?? this.deps.nodes()[0]?.metadata.name ?? 'node-1');
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
    this.deps.write(next as KubeObject);
    if (jobDone) return;
    const ns = pod.metadata.namespace ?? 'default';
    this.deps.event(
      pod,
      'Scheduled',
      `Successfully assigned ${ns}/${pod.metadata.name} to ${node}`,
      'default-scheduler',
    );
    for (const c of containers) {
      this.deps.event(
        pod,
        'Pulled',
        `Container image "${c.image ?? ''}" already present on machine`,
        'kubelet',
      );
      this.deps.event(pod, 'Created', `Created container ${c.name}`, 'kubelet');
      this.deps.event(pod, 'Started', `Started container ${c.name}`, 'kubelet');
    }
  }

  /** The kubelet stops a terminating pod's containers at once and lets it go (grace period 0). */
  kill(pod: KubeObject): void {
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
    this.deps.write(next);
    for (const c of (obj(pod.spec).containers as { name: string }[] | undefined) ?? []) {
      this.deps.event(pod, 'Killing', `Stopping container ${c.name}`, 'kubelet');
    }
  }

  private isJobPod(pod: KubeObject): boolean {
    return ((pod.metadata.ownerReferences as { kind: string }[] | undefined) ?? []).some(
      (r) => r.kind === 'Job',
    );
  }
}
