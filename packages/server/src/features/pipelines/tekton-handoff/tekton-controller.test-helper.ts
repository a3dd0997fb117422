import { readFileSync } from 'node:fs';
import type { KubeApiServer } from '@slipway/agent/test-kube-api-server';
import { parseAllDocuments } from 'yaml';

/**
 * No Tekton controller runs in these tests: the test plays it, writing the PipelineRun's and
 * TaskRuns' status the way Tekton's controller writes it (docs/pipelineruns.md and taskruns.md,
 * "Monitoring execution status"): conditions, childReferences, skippedTasks, results, a TaskRun's
 * podName and steps with their running and terminated states, and the TaskRun's Pod with its
 * step containers' logs.
 */

const CRD_DIR = new URL('../tekton-crds/', import.meta.url);

/** The Tekton CRDs (parsed), for KubeApiServer's `customResourceDefinitions`. */
export function tektonCrds(): unknown[] {
  return ['300-pipeline.yaml', '300-pipelinerun.yaml', '300-task.yaml', '300-taskrun.yaml'].map(
    (file) => parseAllDocuments(readFileSync(new URL(file, CRD_DIR), 'utf8'))[0]!.toJS() as unknown,
  );
}

const TEKTON = 'tekton.dev/v1';
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export interface PlayedStep {
  name: string;
  exitCode?: number;
  /** what the step prints */
  log?: string;
  terminationReason?: string;
}

/** Plays Tekton's controller for one PipelineRun in a namespace of the test API server. */
export class TektonPlayer {
  private readonly children: { kind: string; apiVersion: string; name: string; pipelineTaskName: string }[] =
    [];
  private readonly startTime = now();

  constructor(
    readonly api: KubeApiServer,
    readonly namespace: string,
    readonly name: string,
  ) {}

  /** The PipelineRun as Slipway applied it. */
  get object(): Record<string, unknown> & {
    metadata: Record<string, unknown>;
    spec: Record<string, unknown>;
  } {
    return this.api.get(TEKTON, 'PipelineRun', this.name, this.namespace) as never;
  }

  /** PipelineRun status: Unknown/Running, with its child TaskRuns so far. */
  running(extra: Record<string, unknown> = {}): void {
    this.pipelineRunStatus(
      {
        status: 'Unknown',
        reason: 'Running',
        message: 'Tasks Completed: 0 (Failed: 0, Cancelled 0), Skipped: 0',
      },
      extra,
    );
  }

  /** PipelineRun status: its end. */
  end(
    condition: { status: 'True' | 'False'; reason: string; message?: string },
    extra: Record<string, unknown> = {},
  ): void {
    this.pipelineRunStatus(condition, { completionTime: now(), ...extra });
  }

  private pipelineRunStatus(condition: Record<string, unknown>, extra: Record<string, unknown>): void {
    this.api.setStatus(TEKTON, 'PipelineRun', this.namespace, this.name, {
      conditions: [{ type: 'Succeeded', lastTransitionTime: now(), ...condition }],
      startTime: this.startTime,
      childReferences: this.children,
      ...extra,
    });
  }

  /** Creates the TaskRun of a pipeline task and its Pod, its steps running (their logs written), as the controller and kubelet do. */
  startTask(pipelineTask: string, steps: PlayedStep[], taskRunName = `${this.name}-${pipelineTask}`): string {
    const pr = this.object;
    const labels = {
      ...((pr.metadata.labels as Record<string, string>) ?? {}),
      'tekton.dev/pipelineRun': this.name,
      'tekton.dev/pipelineTask': pipelineTask,
      'tekton.dev/taskRun': taskRunName,
    };
    const podName = `${taskRunName}-pod`;
    this.api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: podName, namespace: this.namespace, labels },
      spec: { containers: steps.map((s) => ({ name: `step-${s.name}`, image: 'busybox' })) },
    });
    this.api.put({
      apiVersion: TEKTON,
      kind: 'TaskRun',
      metadata: {
        name: taskRunName,
        namespace: this.namespace,
        labels,
        ownerReferences: [
          {
            apiVersion: TEKTON,
            kind: 'PipelineRun',
            name: this.name,
            uid: pr.metadata.uid,
            controller: true,
          },
        ],
      },
      spec: { serviceAccountName: 'default' },
    });
    this.api.setStatus(TEKTON, 'TaskRun', this.namespace, taskRunName, {
      conditions: [{ type: 'Succeeded', status: 'Unknown', reason: 'Running', lastTransitionTime: now() }],
      podName,
      startTime: now(),
      steps: steps.map((s) => ({ name: s.name, container: `step-${s.name}`, running: { startedAt: now() } })),
    });
    for (const s of steps) if (s.log) this.api.appendLog(this.namespace, podName, `step-${s.name}`, s.log);
    this.children.push({
      apiVersion: TEKTON,
      kind: 'TaskRun',
      name: taskRunName,
      pipelineTaskName: pipelineTask,
    });
    this.running();
    return taskRunName;
  }

  /**
   * A failed attempt is retried (a pipeline task's `retries`): its status moves to
   * `retriesStatus`, and the TaskRun runs again in a new Pod, `<task run>-pod-retry<N>`.
   */
  retryTask(taskRunName: string, steps: PlayedStep[]): void {
    const tr = this.api.get(TEKTON, 'TaskRun', taskRunName, this.namespace)!;
    const previous = tr.status as { podName: string; retriesStatus?: unknown[] };
    const retries = [...(previous.retriesStatus ?? []), { ...previous, retriesStatus: undefined }];
    // the failed attempt's containers have ended
    for (const s of steps) this.api.endLog(this.namespace, previous.podName, `step-${s.name}`);
    const podName = `${taskRunName}-pod-retry${retries.length}`;
    this.api.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName,
        namespace: this.namespace,
        labels: tr.metadata.labels as Record<string, string>,
      },
      spec: { containers: steps.map((s) => ({ name: `step-${s.name}`, image: 'busybox' })) },
    });
    this.api.setStatus(TEKTON, 'TaskRun', this.namespace, taskRunName, {
      conditions: [{ type: 'Succeeded', status: 'Unknown', reason: 'Running', lastTransitionTime: now() }],
      podName,
      startTime: now(),
      retriesStatus: retries,
      steps: steps.map((s) => ({ name: s.name, container: `step-${s.name}`, running: { startedAt: now() } })),
    });
    for (const s of steps) if (s.log) this.api.appendLog(this.namespace, podName, `step-${s.name}`, s.log);
  }

  /** Ends a TaskRun: its steps terminated with their exit codes, its results, its condition. */
  finishTask(
    taskRunName: string,
    steps: PlayedStep[],
    options: {
      results?: { name: string; value: unknown }[];
      condition?: { status: 'True' | 'False'; reason: string; message?: string };
    } = {},
  ): void {
    const tr = this.api.get(TEKTON, 'TaskRun', taskRunName, this.namespace)!;
    const status = tr.status as { podName: string; startTime: string };
    const failed = steps.some((s) => (s.exitCode ?? 0) !== 0);
    const condition =
      options.condition ??
      (failed
        ? {
            status: 'False',
            reason: 'Failed',
            message: `"step-${steps.find((s) => s.exitCode)!.name}" exited with code ${steps.find((s) => s.exitCode)!.exitCode}`,
          }
        : { status: 'True', reason: 'Succeeded', message: 'All Steps have completed executing' });
    for (const s of steps) this.api.endLog(this.namespace, status.podName, `step-${s.name}`);
    this.api.setStatus(TEKTON, 'TaskRun', this.namespace, taskRunName, {
      ...status,
      conditions: [{ type: 'Succeeded', lastTransitionTime: now(), ...condition }],
      completionTime: now(),
      steps: steps.map((s) => ({
        name: s.name,
        container: `step-${s.name}`,
        terminationReason: s.terminationReason ?? ((s.exitCode ?? 0) === 0 ? 'Completed' : 'Error'),
        terminated: {
          exitCode: s.exitCode ?? 0,
          reason: (s.exitCode ?? 0) === 0 ? 'Completed' : 'Error',
          startedAt: status.startTime,
          finishedAt: now(),
        },
      })),
      ...(options.results ? { results: options.results } : {}),
    });
  }
}
