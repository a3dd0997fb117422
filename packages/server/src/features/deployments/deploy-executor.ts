import { MESSAGES, type HealthResult, type KubernetesObject } from '@slipway/contracts';
import type { AgentGateway } from '../agent-gateway/agent-gateway.js';
import { agentFailure } from '../clusters/agent-errors.js';
import type { EnvironmentTarget } from '../pipelines/executor/kubernetes-executor-resolver.js';
import type { TaskIo, TaskOutcome } from '../pipelines/executor/executor.js';
import type { ResolvedTaskRun } from '../pipelines/executor/types.js';
import { NATIVE_STEP_IMAGE } from './deploy-tasks.js';
import type { DeploymentsStore } from './deployments-store.js';
import {
  appNameOf,
  firstImage,
  isClusterScoped,
  ManifestError,
  parseManifests,
  refsOf,
  setImageTag,
  withPullSecret,
} from './manifests.js';

/** Whether Slipway carries the task out itself (apply-yaml, deploy) instead of an executor. */
export function isInServerTask(task: ResolvedTaskRun): boolean {
  return task.steps.length === 1 && task.steps[0]!.image === NATIVE_STEP_IMAGE;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Applies a task's manifests to the run's environment through the cluster's agent, records the
 * deployment and, when asked to wait, follows its health until healthy (or degraded, or the
 * task's time is up).
 */
export class DeployExecutor {
  constructor(
    private readonly deps: {
      gateway: AgentGateway;
      target: EnvironmentTarget;
      deployments: DeploymentsStore;
      /** how often health is read while waiting (default 2 s) */
      pollMs?: number;
    },
  ) {}

  async runTask(
    run: { id: string; workspaceId: string; environmentId: string | null },
    task: ResolvedTaskRun,
    io: TaskIo,
    signal: AbortSignal,
  ): Promise<TaskOutcome> {
    const step = task.steps[0]!;
    const startedAt = new Date();
    let seq = 0;
    const say = (text: string, stream: 'stdout' | 'stderr' = 'stdout') =>
      io.onLine({ step: step.name, stream, text, at: new Date(), seq: ++seq, attempt: 1 });
    const end = (
      status: TaskOutcome['status'],
      reason: string,
      results: Record<string, string> = {},
    ): TaskOutcome => {
      if (reason) say(reason, 'stderr');
      const stepStatus = status === 'succeeded' ? 'succeeded' : status;
      io.onStepState(step.name, stepStatus);
      return {
        status,
        reason,
        results,
        attempts: 1,
        steps: [
          {
            name: step.name,
            status: stepStatus,
            exitCode: status === 'succeeded' ? 0 : 1,
            startedAt,
            finishedAt: new Date(),
            reason,
          },
        ],
      };
    };
    io.onStepState(step.name, 'running');
    if (!run.environmentId)
      return end(
        'failed',
        `${MESSAGES.environmentRequired}: start the run with an environment bound to a cluster`,
      );
    const target = await this.deps.target(run.environmentId);
    if (!target)
      return end(
        'failed',
        `${MESSAGES.clusterRequired} The run's environment is not bound to a cluster and namespace`,
      );

    let objects: KubernetesObject[];
    try {
      objects = parseManifests(step.env.MANIFESTS ?? '');
      if (step.command?.[0] === 'deploy') {
        const image = step.env.IMAGE ?? '';
        const tag = step.env.TAG ?? '';
        if (!image.trim() || !tag.trim()) throw new ManifestError('image and tag are required');
        const changed = setImageTag(objects, image, tag);
        if (changed === 0) throw new ManifestError(`no container in the manifests runs ${image}`);
        say(`image ${image} set to ${tag} in ${changed} container${changed === 1 ? '' : 's'}`);
      }
    } catch (err) {
      return end('failed', (err as Error).message);
    }
    const app = appNameOf(objects, step.env.APP ?? '');
    const refs = refsOf(objects, target.namespace, isClusterScoped);
    // the pull secret is applied with the workloads but is not part of the application's record
    let pullSecrets: KubernetesObject[] = [];
    const pullSecret = (step.env.PULL_SECRET ?? '').trim();
    if (pullSecret) {
      let config: string;
      try {
        config = await io.secretValue(pullSecret, '.dockerconfigjson');
      } catch (err) {
        return end(
          'failed',
          `pull secret "${pullSecret}" (key ".dockerconfigjson"): ${(err as Error).message}`,
        );
      }
      pullSecrets = withPullSecret(objects, pullSecret, config, target.namespace);
    }
    try {
      const { applied } = await this.deps.gateway.request(target.clusterId, {
        kind: 'apply',
        args: { manifests: [...pullSecrets, ...objects], namespace: target.namespace },
      });
      for (const a of applied) {
        // Fields Slipway owned under another of its managers were taken back (decision 033).
        const tookBack = (a.tookBack ?? []).map((t) => `${t.field} from ${JSON.stringify(t.manager)}`);
        say(
          `applied ${a.kind} ${a.namespace ? `${a.namespace}/` : ''}${a.name}${tookBack.length ? ` (took back ${tookBack.join(', ')})` : ''}`,
        );
      }
    } catch (err) {
      const mapped = agentFailure(err);
      return end('failed', `apply failed: ${(mapped as Error).message}`);
    }
    const record = async (health: HealthResult | null) =>
      this.deps.deployments.record({
        workspaceId: run.workspaceId,
        environmentId: run.environmentId!,
        name: app,
        namespace: target.namespace,
        resources: refs,
        image: firstImage(objects),
        runId: run.id,
        health: health?.status ?? 'unknown',
        healthMessage: health ? healthMessage(health) : null,
      });
    const applied = refs.map((r) => `${r.kind}/${r.namespace ?? ''}/${r.name}`).join('\n');
    let health = await this.health(target.clusterId, refs);
    await record(health);
    const wait = (step.env.WAIT ?? 'true') !== 'false';
    const deadline = Date.now() + (task.timeoutMs ?? 10 * 60_000);
    while (
      wait &&
      health?.status !== 'healthy' &&
      health?.status !== 'degraded' &&
      !signal.aborted &&
      Date.now() < deadline
    ) {
      say(
        `${app} is ${health?.status ?? 'unknown'}${health && healthMessage(health) ? `: ${healthMessage(health)}` : ''}`,
      );
      await sleep(this.deps.pollMs ?? 2000, signal);
      health = await this.health(target.clusterId, refs);
      await record(health);
    }
    const status = health?.status ?? 'unknown';
    say(`${app} is ${status}`);
    const results = { health: status, applied };
    if (signal.aborted) return end('cancelled', 'The run was aborted', results);
    if (!wait) return end('succeeded', '', results);
    if (status === 'healthy') return end('succeeded', '', results);
    if (status === 'degraded')
      return end('failed', `${app} is degraded: ${health ? healthMessage(health) : ''}`, results);
    return end('timed_out', `${app} did not become healthy in time (it is ${status})`, results);
  }

  private async health(clusterId: string, refs: ReturnType<typeof refsOf>): Promise<HealthResult | null> {
    try {
      return await this.deps.gateway.request(clusterId, { kind: 'health', args: { resources: refs } });
    } catch {
      return null;
    }
  }
}

/** The first resource message that explains the overall health. */
export function healthMessage(health: HealthResult): string {
  const worst = health.resources.find((r) => r.health.status === health.status && r.health.message);
  return worst ? `${worst.kind} ${worst.name}: ${worst.health.message}` : '';
}
