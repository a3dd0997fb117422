import { AGENT_NOT_ACTIVE_MESSAGE, type KubernetesObject } from '@slipway/contracts';
import type { AgentGateway, AgentStreamHandle } from '../../agent-gateway/agent-gateway.js';
import type { RunDriving } from '../../pipeline-runs/run-hand-off.js';
import type { RunDefinition } from '../../pipeline-runs/run-definition.js';
import { effectiveTimeout } from '../../pipeline-runs/run-status.js';
import type { DriverDeps } from '../../pipeline-runs/run-driver.js';
import type { ClaimedRun } from '../../pipeline-runs/run-store.js';
import { SecretMasker } from '../executor/secret-masker.js';
import { pipelineRunPlan, RUN_ID_LABEL, type PipelineRunPlan } from './pipeline-run-object.js';
import { namespaceCopies } from './namespace-copies.js';
import { TaskRunFollower, type KnownRow } from './tekton-task-follower.js';
import { pipelineRunEnd, pipelineTaskOf, rowName, type RunEnd, type TektonObject } from './tekton-status.js';
import { pipelineRunIssues, TektonSchemaError } from './tekton-schemas.js';

export interface TektonDriverOptions {
  gateway: AgentGateway;
  clusterId: string;
  namespace: string;
  /** How long past the run's timeout (or a cancel) Slipway waits for Tekton's word before ending the run itself (60 s). */
  graceMs?: number;
  /** Pause before a watch that ended is opened again (1 s). */
  retryMs?: number;
}

const TEKTON = 'tekton.dev/v1';
/** How long the run's end waits for the ends of its TaskRuns that Tekton already reported. */
const SETTLE_MS = 5000;

/**
 * Drives a run that is handed to Tekton (decision 037): the PipelineRun is applied through the
 * cluster's agent (validated against the CRD schemas first), then its status and its TaskRuns'
 * are watched into Slipway's run, task run and step records, the TaskRuns' Pods' logs into the
 * run's live logs. Abort is `spec.status: Cancelled`; Tekton enforces `spec.timeouts`.
 */
export class TektonRunDriver implements RunDriving {
  private plan: PipelineRunPlan | undefined;
  private readonly masker = new SecretMasker();
  private readonly followers = new Map<string, TaskRunFollower>();
  private readonly known = new Map<string, KnownRow>();
  private readonly skipped = new Set<string>();
  private readonly handles = new Set<AgentStreamHandle>();
  private chain: Promise<void> = Promise.resolve();
  private latest: TektonObject | undefined;
  private over = false;
  private detached = false;
  private cancelling = false;
  private applied = false;
  private ending = false;
  private finish!: (end: RunEnd | null) => void;
  private readonly ended = new Promise<RunEnd | null>((resolve) => (this.finish = resolve));
  private timers: NodeJS.Timeout[] = [];
  private copies: { apiVersion: string; kind: string; name: string }[] = [];
  private timeoutReason = '';

  constructor(
    private readonly deps: DriverDeps,
    private readonly run: ClaimedRun,
    private readonly definition: RunDefinition,
    private readonly options: TektonDriverOptions,
  ) {}

  cancel(): void {
    if (this.cancelling || this.over) return;
    this.cancelling = true;
    if (!this.applied) return; // drive() sees it before anything is sent
    this.queue(() => this.sendCancel());
    this.later(this.options.graceMs ?? 60_000, () =>
      this.end({
        status: 'cancelled',
        reason: 'Cancelled',
        message: this.message('Tekton had not confirmed the cancel'),
        results: {},
      }),
    );
  }

  detach(): void {
    this.detached = true;
    this.end(null);
  }

  async drive(): Promise<void> {
    const { gateway, clusterId, namespace } = this.options;
    const timeout = effectiveTimeout(this.run.timeoutMs, this.run.maxRunMinutes, this.deps.minuteMs);
    this.timeoutReason = timeout.reason;
    const elapsed = Date.now() - (this.run.startedAt ?? new Date()).getTime();
    const graceMs = this.options.graceMs ?? 60_000;
    const deadline = Date.now() + Math.max(0, timeout.ms - elapsed) + graceMs;
    try {
      const plan = pipelineRunPlan({
        run: this.run,
        definition: this.definition,
        namespace,
        timeoutMs: timeout.ms,
      });
      this.plan = plan;
      const existing = await this.current(plan, deadline);
      const copying = namespaceCopies(plan, {
        gateway,
        clusterId,
        workspaceId: this.run.workspaceId,
        secrets: this.deps.secrets,
        masker: this.masker,
      });
      void copying.catch(() => undefined); // awaited below, or dropped with the cancel
      if (!existing) {
        if (this.cancelling)
          return this.write({ status: 'cancelled', reason: 'Cancelled', message: '', results: {} });
        const copies = await copying;
        const issues = pipelineRunIssues(plan.object);
        if (issues.length > 0) throw new TektonSchemaError(issues);
        this.copies = copies.map((c) => ({ apiVersion: c.apiVersion, kind: c.kind, name: c.metadata.name }));
        await this.start(plan, copies);
      } else {
        // handed off before (a resumed run): the copies' names and values, for the end and the masking
        const copies = await copying.catch(() => []);
        this.copies = copies.map((c) => ({ apiVersion: c.apiVersion, kind: c.kind, name: c.metadata.name }));
        await this.restore();
      }
      this.applied = true;
      if (this.cancelling) {
        this.cancelling = false;
        this.cancel();
      }
    } catch (error) {
      return this.write({ status: 'failed', reason: (error as Error).message, message: '', results: {} });
    }
    const plan = this.plan!;
    this.later(Math.max(0, deadline - Date.now()), () => this.outlived());
    void this.watch('PipelineRun', `${RUN_ID_LABEL}=${this.run.id}`, (o) => this.onPipelineRun(o));
    void this.watch('TaskRun', `tekton.dev/pipelineRun=${plan.name}`, (o) => this.onTaskRun(o));
    const end = await this.ended;
    this.stopFollowing();
    if (end && !this.detached) await this.write(end);
  }

  /**
   * The PipelineRun as the cluster has it (a resumed run), or undefined. While the agent is not
   * connected it asks again, until `deadline` (the run's timeout and the grace after it).
   */
  private async current(plan: PipelineRunPlan, deadline: number): Promise<KubernetesObject | undefined> {
    const { gateway, clusterId, namespace } = this.options;
    for (;;) {
      try {
        const { object } = await gateway.request(clusterId, {
          kind: 'get',
          args: { apiVersion: TEKTON, kind: 'PipelineRun', name: plan.name, namespace },
        });
        return object;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'not_found') return undefined;
        const away = code === 'not_connected' || code === 'timeout';
        if (!away || this.over || Date.now() > deadline)
          throw new Error(`the PipelineRun could not be read: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 1000));
      }
    }
  }

  /**
   * Applies the PipelineRun. With copies of Slipway's secrets or config maps to make, it is applied
   * pending first (`spec.status: PipelineRunPending`), the copies are owned by it (they go when it
   * goes), and then it is started: no TaskRun can look for a copy before it exists.
   */
  private async start(plan: PipelineRunPlan, copies: KubernetesObject[]): Promise<void> {
    const apply = (manifests: KubernetesObject[]) =>
      this.options.gateway.request(this.options.clusterId, {
        kind: 'apply',
        args: { manifests, namespace: this.options.namespace },
      });
    try {
      if (copies.length === 0) {
        await apply([plan.object as KubernetesObject]);
        return;
      }
      const pending = { ...plan.object, spec: { ...plan.object.spec, status: 'PipelineRunPending' } };
      const { applied } = await apply([pending as KubernetesObject]);
      const uid = applied[0]?.uid;
      const owner = uid ? [{ apiVersion: TEKTON, kind: 'PipelineRun', name: plan.name, uid }] : [];
      await apply(copies.map((c) => ({ ...c, metadata: { ...c.metadata, ownerReferences: owner } })));
      await apply([plan.object as KubernetesObject]);
    } catch (error) {
      throw new Error(`the PipelineRun could not be handed to Tekton: ${(error as Error).message}`);
    }
  }

  private async sendCancel(): Promise<void> {
    const plan = this.plan!;
    const object = { ...plan.object, spec: { ...plan.object.spec, status: 'Cancelled' } };
    try {
      await this.options.gateway.request(this.options.clusterId, {
        kind: 'apply',
        args: { manifests: [object as KubernetesObject], namespace: this.options.namespace },
      });
    } catch (error) {
      this.deps.onError(error, this.run.id);
    }
  }

  /** A resumed run: its task run rows are taken up where they were. */
  private async restore(): Promise<void> {
    for (const row of await this.deps.tasks.taskRuns(this.run.id)) {
      const ended = row.status !== 'running' && row.status !== 'pending';
      this.known.set(row.name, { id: row.id, ended });
      if (row.status === 'skipped') this.skipped.add(row.name);
    }
  }

  /** Keeps a watch open until the run is over: a watch that ends (the agent went away) is opened again and lists again. */
  private async watch(kind: string, labelSelector: string, onObject: (o: TektonObject) => Promise<void>) {
    const { gateway, clusterId, namespace } = this.options;
    while (!this.over) {
      try {
        const handle = await gateway.stream(
          clusterId,
          { kind: 'watch', args: { apiVersion: TEKTON, kind, namespace, labelSelector } },
          (frame) => {
            const event = frame.data as { type?: string; object?: TektonObject } | undefined;
            if (event?.object && event.type !== 'DELETED' && event.type !== 'BOOKMARK')
              this.queue(() => onObject(event.object!));
          },
        );
        this.handles.add(handle);
        if (this.over) handle.close();
        await handle.done.catch(() => undefined);
        this.handles.delete(handle);
      } catch {
        // the agent is not connected: Tekton runs on; following resumes when it is back
      }
      if (!this.over) await new Promise((resolve) => setTimeout(resolve, this.options.retryMs ?? 1000));
    }
  }

  private queue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((error: unknown) => this.deps.onError(error, this.run.id));
  }

  private async onTaskRun(tr: TektonObject): Promise<void> {
    const name = tr.metadata?.name;
    if (!name || this.over) return;
    let follower = this.followers.get(name);
    if (!follower) {
      const pipelineTask = pipelineTaskOf(tr, this.latest) ?? name;
      const row = rowName(name, this.plan!.name, pipelineTask);
      const planned = this.plan!.tasks.get(pipelineTask);
      follower = new TaskRunFollower(this.followerContext(), row, pipelineTask, planned, this.known.get(row));
      this.followers.set(name, follower);
    }
    await follower.update(tr);
  }

  private async onPipelineRun(pr: TektonObject): Promise<void> {
    if (this.over) return;
    this.latest = pr;
    for (const s of pr.status?.skippedTasks ?? []) {
      if (!s.name || this.skipped.has(s.name)) continue;
      this.skipped.add(s.name);
      const id = await this.deps.tasks.upsertTaskRun({
        runId: this.run.id,
        name: s.name,
        pipelineTask: s.name,
        isFinally: this.plan!.tasks.get(s.name)?.isFinally ?? false,
        status: 'skipped',
        reason: s.reason ?? 'Skipped',
      });
      await this.deps.logs.end(this.run.id, id);
    }
    const end = pipelineRunEnd(pr, this.timeoutReason);
    if (end && !this.ending) {
      this.ending = true;
      // outside the queue: the TaskRuns' last statuses, still on their way, are taken in meanwhile
      void this.settle(pr, end);
    }
  }

  /** The run's end, once its TaskRuns' ends are recorded (or a few seconds passed). */
  private async settle(pr: TektonObject, end: RunEnd): Promise<void> {
    const children = (pr.status?.childReferences ?? []).map((c) => c.name ?? '');
    const deadline = Date.now() + SETTLE_MS;
    while (Date.now() < deadline && children.some((c) => !this.followers.get(c)?.done))
      await new Promise((resolve) => setTimeout(resolve, 50));
    await this.chain;
    // as the engine says it: the first task that failed, and why
    const failed = [...this.followers.values()].find((f) => f.failure);
    const reason =
      end.status === 'failed' && failed
        ? `task "${failed.pipelineTask}" failed: ${failed.failure}`
        : end.reason;
    this.end({ ...end, reason, message: this.message(end.message) });
  }

  private message(tekton: string): string {
    const where = `Handed to Tekton as PipelineRun ${this.options.namespace}/${this.plan?.name ?? ''}.`;
    return tekton ? `${where} ${tekton}` : where;
  }

  /** The run's timeout and the grace after it passed without Tekton's end. */
  private outlived(): void {
    if (this.over) return;
    if (!this.options.gateway.isConnected(this.options.clusterId)) {
      this.end({
        status: 'failed',
        reason: `${AGENT_NOT_ACTIVE_MESSAGE}: the PipelineRun's end is not known`,
        message: this.message(''),
        results: {},
      });
      return;
    }
    this.queue(() => this.sendCancel());
    this.end({
      status: 'timed_out',
      reason: this.timeoutReason,
      message: this.message('Tekton had not ended it'),
      results: {},
    });
  }

  private end(end: RunEnd | null): void {
    if (this.over) return;
    this.over = true;
    this.finish(end);
  }

  private later(ms: number, work: () => void): void {
    const timer = setTimeout(work, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private stopFollowing(): void {
    this.timers.forEach((t) => clearTimeout(t));
    for (const h of this.handles) h.close();
    for (const f of this.followers.values()) f.close();
  }

  private followerContext() {
    return {
      runId: this.run.id,
      clusterId: this.options.clusterId,
      namespace: this.options.namespace,
      gateway: this.options.gateway,
      tasks: this.deps.tasks,
      logs: this.deps.logs,
      masker: this.masker,
      onError: (error: unknown) => this.deps.onError(error, this.run.id),
    };
  }

  /** Task runs Tekton never ended are closed with the run's end; the copies go; the run's end is written. */
  private async write(end: RunEnd): Promise<void> {
    if (this.detached) return;
    await this.chain;
    await this.deps.tasks.failRunning(
      this.run.id,
      'the PipelineRun ended before this TaskRun reported its end',
    );
    await Promise.all(
      this.copies.map((c) =>
        this.options.gateway
          .request(this.options.clusterId, {
            kind: 'delete',
            args: { ...c, namespace: this.options.namespace },
          })
          .catch(() => undefined),
      ),
    );
    const message = end.message || (this.plan ? this.message('') : '');
    await this.deps.runs.finish(this.run.id, this.deps.instanceId, { ...end, message, results: end.results });
    await this.deps.logs.end(this.run.id, null);
  }
}
