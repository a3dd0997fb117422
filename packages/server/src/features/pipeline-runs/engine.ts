import { randomUUID } from 'node:crypto';
import { DEFAULT_PIPELINE_RUNS_IN_PROGRESS, DEFAULT_WORKSPACE_RUNS_IN_PROGRESS } from '@slipway/contracts';
import { defaultConcurrency, fairShare, Semaphore } from '../pipelines/executor/concurrency.js';
import type { Executor } from '../pipelines/executor/executor.js';
import type { LogPublisher } from './logs/log-publisher.js';
import { RunDriver, type DriverDeps } from './run-driver.js';
import { handOffOrDrive, type RunDriving, type RunHandOff } from './run-hand-off.js';
import type { DefinitionSource, SecretSource } from './run-sources.js';
import type { ClaimLimits, RunStore } from './run-store.js';
import type { TaskStore } from './task-store.js';

/**
 * Tasks admitted per step slot. A database statement holds the server's thread (PGlite's run on
 * it) for 5–25 ms while a `true` step lasts 2–3 ms; with only a step or two waiting in the
 * spawner's queue, its slots ran dry during every such statement and the cores sat idle. Eight
 * per slot keep the queue longer than the longest statement. A queued task costs a few objects,
 * and its timeout starts only when its first step runs.
 */
export const ADMITTED_PER_SLOT = 8;

export interface RunEngineOptions {
  runs: RunStore;
  tasks: TaskStore;
  executor: Executor;
  /**
   * The executor for one run (e.g. the Kubernetes executor of the run's environment's cluster);
   * by default `executor` runs every run.
   */
  executorFor?: (run: {
    id: string;
    workspaceId: string;
    executor: string;
    environmentId: string | null;
  }) => Executor;
  /**
   * Hands a claimed run as a whole to another system when it answers a driver for it (Tekton on
   * the environment's cluster, decision 037); by default every run is driven here.
   */
  handOff?: RunHandOff;
  /** Pipeline definitions, through the pipeline catalogue's loader. */
  definitions: DefinitionSource;
  /** Secret values, through the secrets feature's reader. */
  secrets: SecretSource;
  /** Where log chunks go (stored, then announced to the sockets following the run). */
  logs: LogPublisher;
  /** Per-run directories go under `<dataDir>/runs/<runId>`. */
  dataDir: string;
  instanceId?: string;
  tickMs?: number;
  leaseMs?: number;
  /** Runs this process drives at once. */
  maxRuns?: number;
  limits?: Partial<ClaimLimits>;
  /**
   * Tasks in progress at once in this process: ADMITTED_PER_SLOT times the CPU count by default.
   * The local executor runs at most the CPU count of step processes at once (StepSpawner); the
   * tasks beyond wait in its queue, so that a slot that frees is taken at once rather than after a
   * round trip through this process's event loop.
   */
  concurrency?: number;
  /** How long a minute of an organisation's run-duration cap lasts: 60,000 ms (tests shorten it). */
  minuteMs?: number;
  onError?: (error: unknown, runId?: string) => void;
}

/** The limits of a workspace or pipeline whose admins set none (their own are in the database). */
export const DEFAULT_RUN_LIMITS: ClaimLimits = {
  perWorkspace: DEFAULT_WORKSPACE_RUNS_IN_PROGRESS,
  perPipeline: DEFAULT_PIPELINE_RUNS_IN_PROGRESS,
};

/**
 * The reconcile loop: every tick (and on notify) renews the leases of the runs it drives, passes
 * on cancel requests, and claims runnable runs (FOR UPDATE SKIP LOCKED) up to its capacity. A run
 * whose lease lapsed is taken over by whichever process claims it next. On stop it stops claiming
 * and aborts its local processes without writing: the leases lapse and recovery takes over.
 *
 * Organisations share it fairly: claims take organisations in turn (RunStore.claim); when this
 * process drives `maxRuns` already, an organisation holding fewer than its share of them
 * (`fairShare(maxRuns, organisations here + 1)`) may still have one run claimed per tick; and
 * tasks are admitted through a Semaphore shared by organisations, so one organisation's fan-out
 * never holds another's first task back.
 */
export class RunEngine {
  readonly instanceId: string;
  private readonly drivers = new Map<
    string,
    { driver: RunDriving; done: Promise<void>; organisationId: string }
  >();
  private readonly semaphore: Semaphore;
  private readonly tickMs: number;
  private readonly leaseMs: number;
  private readonly maxRuns: number;
  private readonly limits: ClaimLimits;
  private readonly logs: LogPublisher;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private running = false;

  constructor(private readonly options: RunEngineOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.semaphore = new Semaphore(options.concurrency ?? ADMITTED_PER_SLOT * defaultConcurrency());
    this.tickMs = options.tickMs ?? 250;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxRuns = options.maxRuns ?? 50;
    this.limits = { ...DEFAULT_RUN_LIMITS, ...options.limits };
    this.logs = options.logs;
  }

  get activeRuns(): string[] {
    return [...this.drivers.keys()];
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** A run was created or ended in this process: look again now rather than at the next tick. */
  notify(): void {
    if (!this.running) return;
    if (this.ticking) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    for (const { driver } of this.drivers.values()) driver.detach();
    await Promise.allSettled([...this.drivers.values()].map((d) => d.done));
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.running || this.ticking) return;
    this.ticking = this.reconcile()
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.ticking = undefined;
      });
    await this.ticking;
    if (!this.running) return;
    const soon = this.again;
    this.again = false;
    this.schedule(soon ? 0 : this.tickMs);
  }

  private async reconcile(): Promise<void> {
    const { runs } = this.options;
    const held = this.activeRuns;
    if (held.length > 0) {
      const renewed = await runs.renew(this.instanceId, held, this.leaseMs);
      const kept = new Set(renewed.map((r) => r.id));
      for (const id of held) if (!kept.has(id)) this.drivers.get(id)?.driver.detach(); // lost it
      for (const r of renewed) if (r.cancel) this.drivers.get(r.id)?.driver.cancel();
    }
    const free = this.maxRuns - this.drivers.size;
    if (!this.running || !(await runs.anyClaimable())) return;
    const claimed =
      free > 0
        ? await runs.claim(this.instanceId, free, this.leaseMs, this.limits)
        : await runs.claim(this.instanceId, 1, this.leaseMs, this.limits, {
            skipOrganisations: this.organisationsAtShare(),
          });
    for (const run of claimed) {
      if (this.drivers.has(run.id)) continue;
      const deps: DriverDeps = {
        runs,
        tasks: this.options.tasks,
        executor: this.options.executorFor?.(run) ?? this.options.executor,
        semaphore: this.semaphore,
        definitions: this.options.definitions,
        secrets: this.options.secrets,
        dataDir: this.options.dataDir,
        instanceId: this.instanceId,
        logs: this.logs,
        minuteMs: this.options.minuteMs,
        onError: (error, runId) => this.options.onError?.(error, runId),
      };
      const local = new RunDriver(deps, run);
      const handOff = this.options.handOff;
      const driver = handOff ? handOffOrDrive(run, deps, local, handOff) : local;
      if (run.cancelRequestedAt) driver.cancel();
      const done = driver
        .drive()
        .catch((error: unknown) => this.options.onError?.(error, run.id))
        .finally(() => {
          this.drivers.delete(run.id);
          this.notify();
        });
      this.drivers.set(run.id, { driver, done, organisationId: run.organisationId });
    }
  }

  /**
   * With every run slot of this process taken: the organisations that hold their share of them
   * already, counting one more organisation that may be waiting (the others may borrow one).
   */
  private organisationsAtShare(): string[] {
    const held = new Map<string, number>();
    for (const { organisationId } of this.drivers.values())
      held.set(organisationId, (held.get(organisationId) ?? 0) + 1);
    const share = fairShare(this.maxRuns, held.size + 1);
    return [...held].filter(([, n]) => n >= share).map(([id]) => id);
  }
}
