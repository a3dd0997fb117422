import { randomBytes } from 'node:crypto';
import { AGENT_NOT_ACTIVE_MESSAGE } from '@slipway/contracts';
import type { AgentGateway, AgentStreamHandle } from '../../agent-gateway/agent-gateway.js';
import type { Executor, StepOutcome, StepState, TaskIo, TaskOutcome } from './executor.js';
import { parseTerminationMessage, podPlan, type PodPlan } from './kubernetes-executor-pod.js';
import { LineSplitter } from './line-splitter.js';
import { SecretMasker } from './secret-masker.js';
import type { ResolvedTaskRun } from './types.js';
import { kubernetesRefusal, refusedOutcome } from './kubernetes-executor-refusals.js';
import { forAttempt } from '../definition/retry-count.js';

export interface KubernetesExecutorOptions {
  gateway: AgentGateway;
  clusterId: string;
  namespace: string;
  /** how often the pod's status is read (default 1 s) */
  pollMs?: number;
  /** the pipeline run the tasks belong to: labels its pods and workspace claims */
  runId?: string;
  /** how long the agent may be unreachable before the task fails with 'Agent not active' (default 5 min) */
  unreachableMs?: number;
}

interface ContainerState {
  name: string;
  state?: {
    waiting?: { reason?: string; message?: string };
    running?: { startedAt?: string };
    terminated?: {
      exitCode?: number;
      reason?: string;
      message?: string;
      startedAt?: string;
      finishedAt?: string;
    };
  };
}
interface PodStatus {
  phase?: string;
  message?: string;
  reason?: string;
  containerStatuses?: ContainerState[];
}

/** Waiting reasons that never resolve on their own: the task fails at once. */
const STUCK = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
]);

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

type Ending = { status: 'timed_out' | 'cancelled'; reason: string } | null;

/**
 * Runs a task as a Pod on an attached cluster, through its agent: one container per step (run in
 * order by a small shell wrapper), workspaces on PersistentVolumeClaims shared by the run's tasks,
 * results in the termination messages, logs streamed back as the containers run. Abort and the
 * task's timeout delete the Pod.
 */
export class KubernetesExecutor implements Executor {
  private readonly pollMs: number;
  private readonly unreachableMs: number;

  constructor(private readonly options: KubernetesExecutorOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.unreachableMs = options.unreachableMs ?? 5 * 60_000;
  }

  async runTask(run: ResolvedTaskRun, io: TaskIo, signal: AbortSignal): Promise<TaskOutcome> {
    const refused = kubernetesRefusal(run);
    if (refused !== undefined) return refusedOutcome(run, io, refused);
    let outcome: TaskOutcome | null = null;
    let attempts = 0;
    let seq = 0;
    for (let attempt = 1; attempt <= run.retries + 1; attempt++) {
      attempts = attempt;
      outcome = await this.attempt(forAttempt(run, attempt), io, signal, attempt, () => ++seq);
      if (outcome.status !== 'failed') break;
    }
    return { ...outcome!, attempts };
  }

  private async attempt(
    run: ResolvedTaskRun,
    io: TaskIo,
    signal: AbortSignal,
    attempt: number,
    nextSeq: () => number,
  ): Promise<TaskOutcome> {
    const { gateway, clusterId, namespace } = this.options;
    const masker = new SecretMasker();
    const secretValues = new Map<string, string>();
    const system = (step: string, text: string) =>
      io.onLine({ step, stream: 'system', text, at: new Date(), seq: nextSeq(), attempt });
    const steps: StepOutcome[] = run.steps.map((s) => ({
      name: s.name,
      status: 'skipped',
      exitCode: null,
      startedAt: null,
      finishedAt: null,
      reason: '',
    }));
    const fail = (reason: string): TaskOutcome => ({
      status: 'failed',
      reason,
      steps,
      results: {},
      attempts: attempt,
    });
    try {
      for (const step of run.steps)
        for (const s of step.secretEnv) {
          try {
            const value = await io.secretValue(s.secret, s.key);
            secretValues.set(`${s.secret}/${s.key}`, value);
            masker.add(value);
          } catch (err) {
            if (!s.optional) return fail(`secret ${s.secret}/${s.key}: ${(err as Error).message}`);
          }
        }
    } catch (err) {
      return fail((err as Error).message);
    }
    const plan = podPlan(run, {
      namespace,
      runKey: `${attempt}-${randomBytes(4).toString('hex')}`,
      secretValues,
      ...(this.options.runId ? { runId: this.options.runId } : {}),
    });
    const podRef = { apiVersion: 'v1', kind: 'Pod', name: plan.pod.metadata.name, namespace };
    try {
      const manifests = [...plan.claims, ...(plan.secret ? [plan.secret] : []), plan.pod];
      await gateway.request(clusterId, { kind: 'apply', args: { manifests, namespace } });
    } catch (err) {
      return fail(`the pod could not be created: ${(err as Error).message}`);
    }
    system(run.steps[0]?.name ?? run.name, `pod ${namespace}/${plan.pod.metadata.name} created`);

    const streams = new Map<string, AgentStreamHandle>();
    const splitters = new Map<string, LineSplitter>();
    const states = new Map<string, StepState>();
    const setState = (i: number, state: StepState) => {
      const name = run.steps[i]!.name;
      if (states.get(name) === state) return;
      states.set(name, state);
      io.onStepState(name, state);
    };
    const following = new Map<string, Promise<void>>();
    const follow = (i: number): Promise<void> => {
      const container = plan.containers[i]!;
      let started = following.get(container);
      if (!started) {
        started = openLog(i);
        following.set(container, started);
      }
      return started;
    };
    const openLog = async (i: number) => {
      const container = plan.containers[i]!;
      const step = run.steps[i]!.name;
      const splitter = new LineSplitter((text) =>
        io.onLine({
          step,
          stream: 'stdout',
          text: masker.mask(text),
          at: new Date(),
          seq: nextSeq(),
          attempt,
        }),
      );
      splitters.set(container, splitter);
      try {
        const handle = await gateway.stream(
          clusterId,
          { kind: 'logs', args: { namespace, pod: plan.pod.metadata.name, container, follow: true } },
          (frame) => {
            if (typeof frame.data === 'string') splitter.push(Buffer.from(frame.data, 'utf8'));
          },
        );
        streams.set(container, handle);
        handle.done.catch(() => undefined).finally(() => splitter.flush());
      } catch (err) {
        system(step, `logs unavailable: ${(err as Error).message}`);
      }
    };

    const deadline = run.timeoutMs ? Date.now() + run.timeoutMs : Infinity;
    let ending: Ending = null;
    let status: PodStatus = {};
    let unreachableSince: number | null = null;
    for (;;) {
      if (signal.aborted) ending = { status: 'cancelled', reason: 'The run was aborted' };
      else if (Date.now() > deadline)
        ending = { status: 'timed_out', reason: `The task timed out after ${run.timeoutMs} ms` };
      if (ending) break;
      try {
        const { object } = await gateway.request(clusterId, { kind: 'get', args: podRef });
        status = (object.status ?? {}) as PodStatus;
        unreachableSince = null;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'not_found') return this.finish(plan, streams, fail('The pod was deleted'));
        unreachableSince ??= Date.now();
        if (Date.now() - unreachableSince > this.unreachableMs)
          return this.finish(plan, streams, fail(`${AGENT_NOT_ACTIVE_MESSAGE}: ${(err as Error).message}`));
        system(run.name, `pod status unavailable: ${(err as Error).message}`);
        await sleep(this.pollMs, signal);
        continue;
      }
      const byName = new Map((status.containerStatuses ?? []).map((c) => [c.name, c]));
      let stuck: string | null = null;
      plan.containers.forEach((container, i) => {
        const st = byName.get(container)?.state;
        if (st?.waiting?.reason && STUCK.has(st.waiting.reason))
          stuck = `step ${run.steps[i]!.name}: ${st.waiting.reason}${st.waiting.message ? `: ${st.waiting.message}` : ''}`;
        if (st?.running || st?.terminated) void follow(i);
        if (st?.terminated) {
          const report = parseTerminationMessage(st.terminated.message, st.terminated.exitCode ?? null);
          const s = steps[i]!;
          s.startedAt = st.terminated.startedAt ? new Date(st.terminated.startedAt) : s.startedAt;
          s.finishedAt = st.terminated.finishedAt ? new Date(st.terminated.finishedAt) : new Date();
          if (report.skipped) s.status = 'skipped';
          else {
            s.exitCode = report.exitCode;
            s.status = report.exitCode === 0 ? 'succeeded' : 'failed';
            s.reason = report.exitCode === 0 ? '' : `exit code ${report.exitCode}`;
          }
          setState(i, s.status);
        } else if (st?.running && states.get(run.steps[i]!.name) !== 'running') {
          steps[i]!.startedAt = new Date();
          setState(i, 'running');
        }
      });
      if (stuck) return this.finish(plan, streams, fail(stuck));
      const allDone = plan.containers.every((c) => byName.get(c)?.state?.terminated);
      if (allDone || status.phase === 'Succeeded' || status.phase === 'Failed') {
        if (!allDone && status.phase === 'Failed')
          return this.finish(plan, streams, fail(status.message ?? status.reason ?? 'The pod failed'));
        break;
      }
      await sleep(this.pollMs, signal);
    }

    if (ending) {
      for (const s of steps) if (s.status === 'skipped' && s.startedAt) s.status = ending.status;
      return this.finish(plan, streams, {
        status: ending.status,
        reason: ending.reason,
        steps,
        results: {},
        attempts: attempt,
      });
    }
    // Let the last lines of each log arrive before the pod goes.
    await Promise.all(following.values());
    await Promise.race([
      Promise.all([...streams.values()].map((h) => h.done.catch(() => undefined))),
      sleep(2000, new AbortController().signal),
    ]);
    for (const splitter of splitters.values()) splitter.flush();
    const results: Record<string, string> = {};
    for (const container of plan.containers) {
      const terminated = (status.containerStatuses ?? []).find((c) => c.name === container)?.state
        ?.terminated;
      Object.assign(results, parseTerminationMessage(terminated?.message, null).results);
    }
    const failed = steps.find((s, i) => s.status === 'failed' && run.steps[i]!.onError !== 'continue');
    const outcome: TaskOutcome = failed
      ? {
          status: 'failed',
          reason: `step ${failed.name} failed: ${failed.reason}`,
          steps,
          results,
          attempts: attempt,
        }
      : { status: 'succeeded', reason: '', steps, results, attempts: attempt };
    return this.finish(plan, streams, outcome);
  }

  /** Stops the log streams and deletes the pod and its secret; the workspaces' claims stay for later tasks. */
  private async finish(
    plan: PodPlan,
    streams: Map<string, AgentStreamHandle>,
    outcome: TaskOutcome,
  ): Promise<TaskOutcome> {
    for (const h of streams.values()) h.close();
    const { gateway, clusterId, namespace } = this.options;
    const remove = async (kind: string, name: string) => {
      try {
        await gateway.request(clusterId, {
          kind: 'delete',
          args: { apiVersion: 'v1', kind, name, namespace, propagationPolicy: 'Background' },
        });
      } catch {
        // already gone, or the agent went away: nothing more to do here
      }
    };
    await remove('Pod', plan.pod.metadata.name);
    if (plan.secret) await remove('Secret', plan.secret.metadata.name);
    return outcome;
  }
}
