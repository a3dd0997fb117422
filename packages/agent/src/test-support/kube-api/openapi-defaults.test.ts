import { describe, expect, it } from 'vitest';
import { applyDefaults } from './openapi-defaults.js';
import { defaultPullPolicy } from './openapi-defaults.js';

describe('applyDefaults', () => {
  it('defaults a Deployment as kubectl get -o yaml shows it after create', () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
        },
      },
    };
    applyDefaults(d);
    expect(d.spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.27',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
              resources: {},
            },
          ],
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
    });
  });

  it('keeps what was given and leaves Recreate without rollingUpdate', () => {
    const d = {
      kind: 'Deployment',
      spec: { replicas: 0, strategy: { type: 'Recreate' }, template: { spec: { containers: [] } } },
    };
    applyDefaults(d);
    expect(d.spec.replicas).toBe(0);
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('pulls :latest and untagged images Always, others IfNotPresent', () => {
    expect(defaultPullPolicy('nginx')).toBe('Always');
    expect(defaultPullPolicy('nginx:latest')).toBe('Always');
    expect(defaultPullPolicy('localhost:5000/app')).toBe('Always');
    expect(defaultPullPolicy('localhost:5000/app:1.0')).toBe('IfNotPresent');
    expect(defaultPullPolicy('nginx@sha256:abc')).toBe('IfNotPresent');
  });

  it('defaults a Service: ClusterIP, None affinity, TCP, targetPort = port, Cluster, SingleStack', () => {
    const s = { kind: 'Service', spec: { ports: [{ port: 80 }, { port: 443, targetPort: 'https' }] } };
    applyDefaults(s);
    expect(s.spec).toEqual({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ports: [
        { port: 80, protocol: 'TCP', targetPort: 80 },
        { port: 443, protocol: 'TCP', targetPort: 'https' },
      ],
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
    });
  });

  it('turns Secret stringData into base64 data, stringData winning', () => {
    const s: Record<string, unknown> = {
      kind: 'Secret',
      data: { a: 'eA==', b: 'eQ==' },
      stringData: { b: 'zz', c: 'ü' },
    };
    applyDefaults(s);
    expect(s).toEqual({ kind: 'Secret', type: 'Opaque', data: { a: 'eA==', b: 'eno=', c: 'w7w=' } });
  });

  it('defaults a Namespace with its finalizer, phase and name label', () => {
    const n = { kind: 'Namespace', metadata: { name: 'team-a' } };
    applyDefaults(n);
    expect(n).toEqual({
      kind: 'Namespace',
      metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  it('defaults Jobs and CronJobs', () => {
    const j = {
      kind: 'Job',
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'x', image: 'busybox' }] } } },
    };
    applyDefaults(j);
    expect(j.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
    });
    expect(j.spec.template.spec).toMatchObject({ restartPolicy: 'Never', dnsPolicy: 'ClusterFirst' });
    const c = {
      kind: 'CronJob',
      spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    };
    applyDefaults(c);
    expect(c.spec).toMatchObject({
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(c.spec.jobTemplate.spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
    });
  });
});
