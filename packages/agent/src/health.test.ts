import { describe, expect, it } from 'vitest';
import {
  aggregateHealth,
  daemonSetHealth,
  deploymentHealth,
  ingressHealth,
  jobHealth,
  podHealth,
  pvcHealth,
  replicaSetHealth,
  resourceHealth,
  serviceHealth,
  statefulSetHealth,
} from './health.js';

// Cases follow Argo CD's gitops-engine health tests (pkg/health/testdata).

describe('Deployment health', () => {
  const deployment = (spec: object, status: object, generation = 1) => ({
    metadata: { name: 'web', generation },
    spec: { replicas: 2, ...spec },
    status: { observedGeneration: 1, ...status },
  });
  it('is healthy when every replica is updated and available', () => {
    expect(
      deploymentHealth(deployment({}, { replicas: 2, updatedReplicas: 2, availableReplicas: 2 })),
    ).toEqual({
      status: 'healthy',
    });
  });
  it('is progressing while replicas are updated, old ones terminate or new ones become available', () => {
    expect(
      deploymentHealth(deployment({}, { replicas: 2, updatedReplicas: 1, availableReplicas: 1 })),
    ).toEqual({
      status: 'progressing',
      message: 'Waiting for rollout to finish: 1 out of 2 new replicas have been updated...',
    });
    expect(
      deploymentHealth(deployment({}, { replicas: 3, updatedReplicas: 2, availableReplicas: 2 })).message,
    ).toBe('Waiting for rollout to finish: 1 old replicas are pending termination...');
    expect(
      deploymentHealth(deployment({}, { replicas: 2, updatedReplicas: 2, availableReplicas: 1 })).message,
    ).toBe('Waiting for rollout to finish: 1 of 2 updated replicas are available...');
  });
  it('is progressing until the controller observed the generation', () => {
    expect(
      deploymentHealth(deployment({}, { replicas: 2, updatedReplicas: 2, availableReplicas: 2 }, 2)),
    ).toEqual({
      status: 'progressing',
      message: 'Waiting for rollout to finish: observed deployment generation less than desired generation',
    });
  });
  it('is degraded past its progress deadline, suspended when paused', () => {
    expect(
      deploymentHealth(
        deployment(
          {},
          { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] },
        ),
      ),
    ).toEqual({ status: 'degraded', message: 'Deployment "web" exceeded its progress deadline' });
    expect(deploymentHealth(deployment({ paused: true }, {})).status).toBe('suspended');
  });
});

describe('StatefulSet health', () => {
  const sts = (spec: object, status: object) => ({
    metadata: { name: 'db', generation: 1 },
    spec: { replicas: 3, ...spec },
    status: { observedGeneration: 1, ...status },
  });
  it('waits for the spec to be observed and for pods to be ready', () => {
    expect(statefulSetHealth({ metadata: { generation: 1 }, spec: {}, status: {} }).status).toBe(
      'progressing',
    );
    expect(statefulSetHealth(sts({}, { readyReplicas: 1 })).message).toBe(
      'Waiting for 2 pods to be ready...',
    );
  });
  it('follows partitioned, OnDelete and rolling updates', () => {
    const partitioned = { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } };
    expect(statefulSetHealth(sts(partitioned, { readyReplicas: 3, updatedReplicas: 1 })).status).toBe(
      'progressing',
    );
    expect(statefulSetHealth(sts(partitioned, { readyReplicas: 3, updatedReplicas: 2 })).status).toBe(
      'healthy',
    );
    expect(
      statefulSetHealth(sts({ updateStrategy: { type: 'OnDelete' } }, { readyReplicas: 3 })).status,
    ).toBe('healthy');
    expect(
      statefulSetHealth(
        sts({}, { readyReplicas: 3, currentRevision: 'db-1', updateRevision: 'db-2', updatedReplicas: 1 }),
      ),
    ).toEqual({
      status: 'progressing',
      message: 'waiting for statefulset rolling update to complete 1 pods at revision db-2...',
    });
    expect(
      statefulSetHealth(
        sts({}, { readyReplicas: 3, currentRevision: 'db-2', updateRevision: 'db-2', currentReplicas: 3 }),
      ).status,
    ).toBe('healthy');
  });
});

describe('DaemonSet and ReplicaSet health', () => {
  it('rolls a daemon set out', () => {
    const ds = (status: object) => ({
      metadata: { name: 'agent', generation: 1 },
      spec: {},
      status: { observedGeneration: 1, ...status },
    });
    expect(daemonSetHealth(ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 2 })).message).toBe(
      'Waiting for daemon set "agent" rollout to finish: 2 out of 3 new pods have been updated...',
    );
    expect(
      daemonSetHealth(ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 2 }))
        .status,
    ).toBe('progressing');
    expect(
      daemonSetHealth(ds({ desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 }))
        .status,
    ).toBe('healthy');
    expect(daemonSetHealth({ metadata: { generation: 2 }, status: { observedGeneration: 1 } }).status).toBe(
      'progressing',
    );
  });
  it('reports a replica failure as degraded', () => {
    const rs = (status: object) => ({
      metadata: { generation: 1 },
      spec: { replicas: 2 },
      status: { observedGeneration: 1, ...status },
    });
    expect(
      replicaSetHealth(
        rs({ conditions: [{ type: 'ReplicaFailure', status: 'True', message: 'quota exceeded' }] }),
      ),
    ).toEqual({ status: 'degraded', message: 'quota exceeded' });
    expect(replicaSetHealth(rs({ availableReplicas: 1 })).status).toBe('progressing');
    expect(replicaSetHealth(rs({ availableReplicas: 2 })).status).toBe('healthy');
  });
});

describe('Pod health', () => {
  const pod = (status: object, restartPolicy = 'Always') => ({
    metadata: { name: 'p' },
    spec: { restartPolicy },
    status,
  });
  it('maps phases', () => {
    expect(podHealth(pod({ phase: 'Pending' })).status).toBe('progressing');
    expect(podHealth(pod({ phase: 'Succeeded' })).status).toBe('healthy');
    expect(podHealth(pod({ phase: 'Failed', message: 'Evicted' }))).toEqual({
      status: 'degraded',
      message: 'Evicted',
    });
    expect(
      podHealth(
        pod({
          phase: 'Failed',
          containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 3 } } }],
        }),
      ),
    ).toEqual({ status: 'degraded', message: 'container "main" failed with exit code 3' });
    expect(podHealth(pod({ phase: 'Unknown' })).status).toBe('unknown');
  });
  it('is healthy running and ready, progressing running for run-to-completion pods', () => {
    expect(podHealth(pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] })).status).toBe(
      'healthy',
    );
    expect(
      podHealth(pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] })).status,
    ).toBe('progressing');
    expect(
      podHealth(pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }, 'Never')).status,
    ).toBe('progressing');
  });
  it('is degraded in a crash loop or with an image pull error', () => {
    expect(
      podHealth(
        pod({
          phase: 'Running',
          containerStatuses: [
            { name: 'main', state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } } },
          ],
        }),
      ),
    ).toEqual({ status: 'degraded', message: 'back-off 5m0s' });
    expect(
      podHealth(
        pod({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ErrImagePull' } } }] }),
      ).status,
    ).toBe('degraded');
    expect(
      podHealth(
        pod(
          { phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ErrImagePull' } } }] },
          'Never',
        ),
      ).status,
    ).toBe('progressing');
  });
});

describe('Service, Ingress, PVC and Job health', () => {
  it('waits for a load balancer address', () => {
    expect(serviceHealth({ spec: { type: 'ClusterIP' } }).status).toBe('healthy');
    expect(serviceHealth({ spec: { type: 'LoadBalancer' }, status: {} }).status).toBe('progressing');
    expect(
      serviceHealth({
        spec: { type: 'LoadBalancer' },
        status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } },
      }).status,
    ).toBe('healthy');
    expect(ingressHealth({ status: { loadBalancer: {} } }).status).toBe('progressing');
    expect(ingressHealth({ status: { loadBalancer: { ingress: [{ hostname: 'lb' }] } } }).status).toBe(
      'healthy',
    );
  });
  it('maps claim phases', () => {
    expect(pvcHealth({ status: { phase: 'Bound' } }).status).toBe('healthy');
    expect(pvcHealth({ status: { phase: 'Pending' } }).status).toBe('progressing');
    expect(pvcHealth({ status: { phase: 'Lost' } }).status).toBe('degraded');
    expect(pvcHealth({ status: {} }).status).toBe('unknown');
  });
  it('follows job conditions', () => {
    expect(jobHealth({ status: { active: 1 } }).status).toBe('progressing');
    expect(jobHealth({ status: { conditions: [{ type: 'Complete', status: 'True' }] } }).status).toBe(
      'healthy',
    );
    expect(
      jobHealth({
        status: { conditions: [{ type: 'Failed', status: 'True', message: 'BackoffLimitExceeded' }] },
      }),
    ).toEqual({ status: 'degraded', message: 'BackoffLimitExceeded' });
    expect(jobHealth({ status: { conditions: [{ type: 'Suspended', status: 'True' }] } }).status).toBe(
      'suspended',
    );
  });
});

describe('resource health and the aggregate', () => {
  it('is missing without a live object, null for kinds without a rule', () => {
    expect(resourceHealth('apps/v1', 'Deployment', null)).toEqual({ status: 'missing' });
    expect(resourceHealth('v1', 'ConfigMap', { metadata: { name: 'x' } })).toBeNull();
    expect(
      resourceHealth('batch/v1', 'Job', { status: { conditions: [{ type: 'Complete', status: 'True' }] } }),
    ).toEqual({
      status: 'healthy',
    });
  });
  it('takes the worst status in Argo CD order', () => {
    expect(aggregateHealth([])).toBe('healthy');
    expect(aggregateHealth(['healthy', 'suspended'])).toBe('suspended');
    expect(aggregateHealth(['suspended', 'progressing', 'healthy'])).toBe('progressing');
    expect(aggregateHealth(['progressing', 'missing'])).toBe('missing');
    expect(aggregateHealth(['missing', 'degraded'])).toBe('degraded');
    expect(aggregateHealth(['degraded', 'unknown'])).toBe('unknown');
  });
});
