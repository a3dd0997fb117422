import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachCluster, type AttachedCluster } from '../../clusters/attached-agent.test-helper.js';
import { kubernetesSchemaProblem } from '../../clusters/kubernetes-schemas.js';
import { createSignedInUser, type TestUser } from '../../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../../test-support/test-app.js';
import type { LogLine, StepState, TaskIo } from './executor.js';
import { KubernetesExecutor } from './kubernetes-executor.js';
import { claimName, parseTerminationMessage, podPlan } from './kubernetes-executor-pod.js';
import type { ResolvedTaskRun } from './types.js';

const NS = 'ci';

function taskRun(patch: Partial<ResolvedTaskRun> = {}): ResolvedTaskRun {
  return {
    name: 'build',
    steps: [
      {
        name: 'compile',
        image: 'alpine:3.20',
        script: 'echo compiling\nprintf sha256:abc > /results/digest',
        env: { GREETING: 'hi' },
        secretEnv: [],
        onError: 'stopAndFail',
      },
      {
        name: 'test',
        image: 'alpine:3.20',
        command: ['sh', '-c'],
        args: ['echo testing'],
        env: {},
        secretEnv: [],
        onError: 'stopAndFail',
      },
    ],
    resultsDir: '/results',
    results: ['digest'],
    workspaces: { source: '/data/runs/r1/ws/source' },
    retries: 0,
    ...patch,
  };
}

function recorder(secrets: Record<string, string> = {}) {
  const lines: LogLine[] = [];
  const states: Array<[string, StepState]> = [];
  const io: TaskIo = {
    onLine: (l) => lines.push(l),
    onStepState: (s, st) => states.push([s, st]),
    secretValue: async (secret, key) => {
      const v = secrets[`${secret}/${key}`];
      if (v === undefined) throw new Error('no such secret');
      return v;
    },
  };
  return { io, lines, states };
}

describe('Kubernetes executor, through the real agent', () => {
  let t: TestApp;
  let owner: TestUser;
  let cluster: AttachedCluster;
  let executor: KubernetesExecutor;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    cluster = await attachCluster(t, owner, { name: 'builds' });
    cluster.api.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    executor = new KubernetesExecutor({
      gateway: t.app.agentGateway,
      clusterId: cluster.clusterId,
      namespace: NS,
      pollMs: 50,
    });
  });
  afterAll(async () => {
    await cluster.close();
    await t.close();
  });

  /** The task's pod, once the executor has created it. */
  async function podOf(): Promise<
    { name: string; spec: { containers: { name: string; env?: unknown[] }[] } } & Record<string, unknown>
  > {
    let found: Record<string, unknown> | undefined;
    await expect.poll(() => (found = cluster.api.list('v1', 'Pod', NS)[0]), { timeout: 5000 }).toBeTruthy();
    const pod = found as { metadata: { name: string }; spec: { containers: { name: string }[] } };
    return { ...pod, name: pod.metadata.name };
  }

  it('runs a pod with a container per step, streams their logs and reads results', async () => {
    const { io, lines, states } = recorder();
    const outcome = executor.runTask(taskRun(), io, new AbortController().signal);
    const pod = await podOf();
    expect(kubernetesSchemaProblem(cluster.api.get('v1', 'Pod', pod.name, NS)!)).toBeNull();
    expect(pod.spec.containers.map((c) => c.name)).toEqual(['step-compile', 'step-test']);
    expect(JSON.stringify(pod.spec)).toContain(claimName('/data/runs/r1/ws/source'));
    expect(
      cluster.api.get('v1', 'PersistentVolumeClaim', claimName('/data/runs/r1/ws/source'), NS),
    ).toBeTruthy();

    cluster.api.appendLog(NS, pod.name, 'step-compile', 'compiling\n');
    cluster.api.appendLog(NS, pod.name, 'step-test', 'testing\n');
    cluster.api.setPodPhase(NS, pod.name, 'Running');
    await expect
      .poll(() => lines.map((l) => l.text), { timeout: 5000 })
      .toEqual(expect.arrayContaining(['compiling', 'testing']));
    cluster.api.setPodPhase(NS, pod.name, 'Succeeded', {
      terminationMessages: {
        'step-compile': `exitCode:0\nresult:digest:${Buffer.from('sha256:abc').toString('base64')}\n`,
        'step-test': 'exitCode:0\n',
      },
    });
    const result = await outcome;
    expect(result).toMatchObject({ status: 'succeeded', results: { digest: 'sha256:abc' }, attempts: 1 });
    expect(result.steps.map((s) => [s.name, s.status, s.exitCode])).toEqual([
      ['compile', 'succeeded', 0],
      ['test', 'succeeded', 0],
    ]);
    expect(states).toContainEqual(['compile', 'running']);
    expect(lines.find((l) => l.text === 'compiling')).toMatchObject({ step: 'compile', stream: 'stdout' });
    // The pod is gone; the workspace's claim stays for the next task.
    expect(cluster.api.list('v1', 'Pod', NS)).toEqual([]);
    expect(
      cluster.api.get('v1', 'PersistentVolumeClaim', claimName('/data/runs/r1/ws/source'), NS),
    ).toBeTruthy();
  });

  it('fails the task when a step fails, and the steps after it are skipped', async () => {
    const { io } = recorder();
    const outcome = executor.runTask(taskRun({ workspaces: {} }), io, new AbortController().signal);
    const pod = await podOf();
    cluster.api.setPodPhase(NS, pod.name, 'Failed', {
      exitCodes: { 'step-compile': 2, 'step-test': 0 },
      terminationMessages: { 'step-compile': 'exitCode:2\n', 'step-test': 'skipped\n' },
    });
    const result = await outcome;
    expect(result.status).toBe('failed');
    expect(result.reason).toBe('step compile failed: exit code 2');
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'skipped']);
  });

  it('passes secret env through a Secret, never in the pod, and masks the value in logs', async () => {
    const { io, lines } = recorder({ 'registry/password': 'pa55word-xyz' });
    const run = taskRun({ workspaces: {} });
    run.steps[0]!.secretEnv = [{ name: 'PASSWORD', secret: 'registry', key: 'password' }];
    const outcome = executor.runTask(run, io, new AbortController().signal);
    const pod = await podOf();
    const stored = cluster.api.get('v1', 'Pod', pod.name, NS)!;
    expect(JSON.stringify(stored)).not.toContain('pa55word-xyz');
    expect(JSON.stringify(stored)).toContain('secretKeyRef');
    const secret = cluster.api.get('v1', 'Secret', `${pod.name}-env`, NS)!;
    // Like Kubernetes, the API server keeps stringData base64-encoded in data.
    const values = Object.values((secret.data ?? {}) as Record<string, string>);
    expect(values.map((v) => Buffer.from(v, 'base64').toString())).toContain('pa55word-xyz');
    cluster.api.appendLog(NS, pod.name, 'step-compile', 'login with pa55word-xyz\n');
    cluster.api.setPodPhase(NS, pod.name, 'Running');
    await expect.poll(() => lines.map((l) => l.text), { timeout: 5000 }).toContain('login with ***');
    cluster.api.setPodPhase(NS, pod.name, 'Succeeded', {
      terminationMessages: { 'step-compile': 'exitCode:0', 'step-test': 'exitCode:0' },
    });
    expect((await outcome).status).toBe('succeeded');
    expect(cluster.api.get('v1', 'Secret', `${pod.name}-env`, NS)).toBeUndefined();
  });

  it('abort deletes the pod', async () => {
    const { io } = recorder();
    const controller = new AbortController();
    const outcome = executor.runTask(taskRun({ workspaces: {} }), io, controller.signal);
    const pod = await podOf();
    cluster.api.setPodPhase(NS, pod.name, 'Running');
    controller.abort();
    const result = await outcome;
    expect(result.status).toBe('cancelled');
    expect(cluster.api.get('v1', 'Pod', pod.name, NS)).toBeUndefined();
  });

  it("runs the pod as the task's service account (a run document's taskRunSpecs or taskRunTemplate)", async () => {
    const { io } = recorder();
    const controller = new AbortController();
    const outcome = executor.runTask(
      taskRun({ workspaces: {}, serviceAccountName: 'build-bot' }),
      io,
      controller.signal,
    );
    const pod = await podOf();
    const stored = cluster.api.get('v1', 'Pod', pod.name, NS)!;
    expect(kubernetesSchemaProblem(stored)).toBeNull();
    expect((stored.spec as { serviceAccountName?: string }).serviceAccountName).toBe('build-bot');
    controller.abort();
    expect((await outcome).status).toBe('cancelled');
    // without one, the pod names none: the namespace's "default"
    const plain = podPlan(taskRun({ workspaces: {} }), {
      namespace: NS,
      runKey: 'k',
      secretValues: new Map(),
    });
    expect(plain.pod.spec).not.toHaveProperty('serviceAccountName');
  });

  it("enforces the task's timeout: the pod gets a deadline and is deleted when it passes", async () => {
    const { io } = recorder();
    const outcome = executor.runTask(
      taskRun({ workspaces: {}, timeoutMs: 400 }),
      io,
      new AbortController().signal,
    );
    const pod = await podOf();
    expect(
      (cluster.api.get('v1', 'Pod', pod.name, NS)!.spec as { activeDeadlineSeconds: number })
        .activeDeadlineSeconds,
    ).toBe(1);
    const result = await outcome;
    expect(result.status).toBe('timed_out');
    expect(cluster.api.get('v1', 'Pod', pod.name, NS)).toBeUndefined();
  });

  it('fails at once on an image that cannot be pulled', async () => {
    const { io } = recorder();
    const outcome = executor.runTask(taskRun({ workspaces: {} }), io, new AbortController().signal);
    const pod = await podOf();
    cluster.api.setStatus('v1', 'Pod', NS, pod.name, {
      phase: 'Pending',
      containerStatuses: [
        {
          name: 'step-compile',
          state: { waiting: { reason: 'ImagePullBackOff', message: 'no such image' } },
        },
      ],
    });
    const result = await outcome;
    expect(result).toMatchObject({
      status: 'failed',
      reason: 'step compile: ImagePullBackOff: no such image',
    });
  });

  it("fails with 'Agent not active' when the agent stays away (run last: it stops the agent)", async () => {
    const { io } = recorder();
    const impatient = new KubernetesExecutor({
      gateway: t.app.agentGateway,
      clusterId: cluster.clusterId,
      namespace: NS,
      pollMs: 50,
      unreachableMs: 300,
    });
    const outcome = impatient.runTask(taskRun({ workspaces: {} }), io, new AbortController().signal);
    await podOf();
    await cluster.agent.stop();
    const result = await outcome;
    expect(result.status).toBe('failed');
    expect(result.reason).toMatch(/^Agent not active/);
  });

  it('reads termination messages', () => {
    expect(parseTerminationMessage('skipped\n', 0)).toEqual({ skipped: true, exitCode: 0, results: {} });
    expect(
      parseTerminationMessage(`exitCode:3\nresult:a:${Buffer.from('x y').toString('base64')}`, null),
    ).toEqual({
      skipped: false,
      exitCode: 3,
      results: { a: 'x y' },
    });
  });
});
