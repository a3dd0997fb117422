import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Executor, StepOutcome, TaskIo, TaskOutcome, TaskStatus } from './executor.js';
import { SecretMasker } from './secret-masker.js';
import { PULL_SECRET, TaskSandbox, type RegistryAuths, type SandboxOptions } from './sandbox/task-sandbox.js';
import { cancelReason, hostStepDirs, runStep, taskTimeoutReason } from './step-runner.js';
import { recordExitCode, stepResultDirs, taskResultsFromSteps, usesStepValues } from './step-values.js';
import { sharedStepSpawner, StepSpawner } from './step-spawner.js';
import { clearResults, readResults } from './task-results.js';
import { TaskLog } from './task-log.js';
import { refuseUnsandboxed } from './sandbox/task-volumes.js';
import { logWorkspaceSizes } from './sandbox/workspace-size.js';
import type { ResolvedTaskRun } from './types.js';
import { forAttempt } from '../definition/retry-count.js';
import { serverServiceAccountRefusal } from './service-account.js';
import { serverPodTemplateRefusal } from './pod-template.js';

export interface LocalExecutorOptions {
  /** Parent of the per-attempt scratch dirs (HOME of the steps, their script files). */
  scratchRoot?: string;
  /** SIGTERM → SIGKILL grace on timeout or abort; 2 s by default. */
  killGraceMs?: number;
  /** Keep scratch dirs after the task (debugging). */
  keepScratch?: boolean;
  /** PATH given to steps; the server's PATH by default. */
  path?: string;
  /**
   * Who forks the steps: by default the process-wide helper process (a small Node process, so a
   * fork does not copy the server's memory map and does not block its event loop), falling back
   * to this process when the helper cannot start; `'in-process'` always forks from this process.
   */
  spawner?: StepSpawner | 'in-process';
  /**
   * Run every step in a sandbox (decision 019). Absent: steps run on the host as the server's
   * user (`SLIPWAY_LOCAL_EXECUTOR=unsandboxed`, a single-user installation).
   */
  sandbox?: SandboxOptions;
  /** Refuse every task with this reason (no sandbox can be made, several organisations unsandboxed). */
  refuse?: () => Promise<string | undefined>;
}

type Attempt = Omit<TaskOutcome, 'attempts'>;

function skipped(name: string, reason: string): StepOutcome {
  return { name, status: 'skipped', exitCode: null, startedAt: null, finishedAt: null, reason };
}

function scratchName(task: string): string {
  return `${task.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'task'}-`;
}

/** A step's process group in the supervisor: `<task run>:<attempt>:<step index>`. */
export function stepKey(run: ResolvedTaskRun, attempt: number, index: number): string | undefined {
  return run.key === undefined ? undefined : `${run.key}:${attempt}:${index}`;
}

/**
 * The embedded executor: runs each step of a task as a child process group on this host, in
 * order, in the run's workspace directory (like GitLab Runner's shell executor). A step's image
 * is only recorded and shown. Concurrency is bounded by the caller (see Semaphore).
 */
export class LocalExecutor implements Executor {
  /** Steps see Tekton's container paths (`/workspace/<name>`, `/tekton/results`) when sandboxed. */
  get containerPaths(): boolean {
    return this.options.sandbox !== undefined;
  }

  private readonly scratchRoot: string;
  private rootReady: Promise<unknown> | undefined;
  private readonly spawner: StepSpawner;

  constructor(private readonly options: LocalExecutorOptions = {}) {
    this.scratchRoot = options.scratchRoot ?? join(tmpdir(), 'slipway-local');
    this.spawner =
      options.spawner === 'in-process'
        ? new StepSpawner('in-process')
        : (options.spawner ?? sharedStepSpawner());
  }

  async runTask(run: ResolvedTaskRun, io: TaskIo, signal: AbortSignal): Promise<TaskOutcome> {
    const log = new TaskLog(io, new SecretMasker());
    // the server has no Kubernetes identity to run a task as (pipeline-runs/run-service-accounts.ts)
    const refused =
      run.serviceAccountName !== undefined
        ? serverServiceAccountRefusal(run.serviceAccountName)
        : run.podTemplate !== undefined
          ? serverPodTemplateRefusal()
          : await this.options.refuse?.();
    if (refused !== undefined) {
      log.system(run.steps[0]?.name ?? '', refused);
      run.steps.forEach((s) => io.onStepState(s.name, 'skipped'));
      const steps = run.steps.map((s) => skipped(s.name, refused));
      return { status: 'failed', reason: refused, steps, results: {}, attempts: 1 };
    }
    const firstStep = run.steps[0]?.name ?? '';
    let attempt = 1;
    let outcome = await this.attempt(forAttempt(run, attempt), io, log, signal);
    while (outcome.status !== 'succeeded' && outcome.status !== 'cancelled' && attempt <= run.retries) {
      if (signal.aborted) break;
      attempt += 1;
      log.attempt = attempt;
      log.system(
        firstStep,
        `Retry ${attempt - 1} of ${run.retries} (the previous attempt: ${outcome.reason})`,
      );
      outcome = await this.attempt(forAttempt(run, attempt), io, log, signal);
    }
    await logWorkspaceSizes(run, log);
    if (log.sinkError !== undefined && outcome.status === 'succeeded') {
      outcome = { ...outcome, status: 'failed', reason: `the log sink failed: ${String(log.sinkError)}` };
    }
    return { ...outcome, attempts: attempt };
  }

  private async attempt(
    run: ResolvedTaskRun,
    io: TaskIo,
    log: TaskLog,
    signal: AbortSignal,
  ): Promise<Attempt> {
    let scratchDir: string | undefined;
    const scratch = { removed: false };
    let sandbox: TaskSandbox | undefined;
    try {
      this.rootReady ??= mkdir(this.scratchRoot, { recursive: true });
      await this.rootReady.catch(() => (this.rootReady = undefined));
      // created (0700) with the first step, by whoever spawns it; named after the task run and
      // attempt when known, so that a restarted server finds the same one
      scratchDir = join(
        this.scratchRoot,
        scratchName(run.name) +
          (run.key
            ? `${run.key.replace(/[^A-Za-z0-9-]/g, '').slice(0, 36)}-${log.attempt}`
            : randomBytes(6).toString('hex')),
      );
      // a resumed attempt whose first step ran already keeps the results its steps wrote
      const resumed = run.resumed && (await this.spawner.known(`${run.key}:${log.attempt}:`)).length > 0;
      if (run.results.length > 0 && !resumed) {
        await mkdir(run.resultsDir, { recursive: true });
        await clearResults(run.resultsDir, run.results);
      }
      if (this.options.sandbox)
        sandbox = await TaskSandbox.prepare(
          this.options.sandbox,
          run,
          scratchDir,
          this.spawner,
          log.attempt,
          () =>
            io.secretValue(PULL_SECRET.name, PULL_SECRET.key).then(
              (text) => (JSON.parse(text) as { auths?: RegistryAuths }).auths,
              () => undefined, // no such secret: anonymous pulls
            ),
        );
      else refuseUnsandboxed(run);
      await sandbox?.startSidecars(io, log, signal);
      return await this.runSteps(run, io, log, signal, scratchDir, scratch, sandbox);
    } catch (error) {
      const reason = `task "${run.name}" could not be prepared on this host: ${String(error)}`;
      run.steps.forEach((s) => io.onStepState(s.name, 'skipped'));
      return { status: 'failed', reason, steps: run.steps.map((s) => skipped(s.name, reason)), results: {} };
    } finally {
      sandbox?.stop();
      // the sidecars' last lines (SIGTERM, a grace, SIGKILL) belong to the task's log
      await sandbox?.stopped;
      if (scratchDir && !this.options.keepScratch && !scratch.removed)
        await this.spawner.removeDir(scratchDir);
    }
  }

  /**
   * Task runs whose steps the supervisor still holds (their server died mid-task): those can be
   * driven on, re-attaching to their process groups. The others lost their executor.
   */
  async recoverable(taskRunIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const id of taskRunIds) if ((await this.spawner.known(`${id}:`)).length > 0) found.add(id);
    return found;
  }

  /** The task run's end is stored: the supervisor forgets its groups and their spooled output. */
  release(taskRunId: string): void {
    this.spawner.release(`${taskRunId}:`);
  }

  private async runSteps(
    run: ResolvedTaskRun,
    io: TaskIo,
    log: TaskLog,
    signal: AbortSignal,
    scratchDir: string,
    scratch: { removed: boolean },
    sandbox: TaskSandbox | undefined,
  ): Promise<Attempt> {
    // the task's timeout runs from when its first step runs (a step may wait for a slot first)
    let taskDeadline: number | undefined;
    const startClock = () => {
      if (taskDeadline === undefined && run.timeoutMs && run.timeoutMs > 0)
        taskDeadline = Date.now() + run.timeoutMs;
    };
    const timeoutReason = taskTimeoutReason(run);
    run.steps.forEach((step) => io.onStepState(step.name, 'pending'));
    // unsandboxed steps that use step results or paths get the directories a sandbox would bind
    const hostDirs =
      !sandbox && (run.resultsFromSteps || run.steps.some(usesStepValues))
        ? hostStepDirs(scratchDir)
        : undefined;
    if (hostDirs) {
      await mkdir(scratchDir, { recursive: true, mode: 0o700 });
      for (const dir of [hostDirs.credentials, ...stepResultDirs(run, hostDirs.host)])
        await mkdir(dir, { recursive: true });
    }
    let status: TaskStatus = 'succeeded';
    let reason = '';
    let skipReason = '';
    const steps: StepOutcome[] = [];
    for (const [index, step] of run.steps.entries()) {
      if (!skipReason && signal.aborted) {
        [status, reason, skipReason] = ['cancelled', cancelReason(signal), 'skipped: the task was cancelled'];
      } else if (!skipReason && taskDeadline !== undefined && Date.now() >= taskDeadline) {
        [status, reason, skipReason] = ['timed_out', timeoutReason, 'skipped: the task timed out'];
      }
      if (skipReason) {
        steps.push(skipped(step.name, skipReason));
        io.onStepState(step.name, 'skipped');
        continue;
      }
      const outcome = await runStep({
        run,
        step,
        index,
        scratchDir,
        io,
        log,
        signal,
        get taskDeadline() {
          return taskDeadline;
        },
        onStarted: startClock,
        killGraceMs: this.options.killGraceMs,
        path: this.options.path,
        spawner: this.spawner,
        ...(sandbox ? { sandbox } : {}),
        ...(stepKey(run, log.attempt, index) ? { key: stepKey(run, log.attempt, index)! } : {}),
        // results taken from step results are read from the scratch dir after the last step
        removeScratchAfter:
          !this.options.keepScratch && index === run.steps.length - 1 && !run.resultsFromSteps,
        onScratchRemoved: () => (scratch.removed = true),
      });
      steps.push(outcome);
      // later steps read it at /tekton/steps/<step>/exitCode (unsandboxed: <scratch>/steps/…)
      if (index < run.steps.length - 1) {
        if (sandbox) await sandbox.recordExit(step, index, outcome.exitCode);
        else if (hostDirs) await recordExitCode(hostDirs.host, step, index, outcome.exitCode);
      }
      const taskTimedOut = outcome.status === 'timed_out' && outcome.reason === timeoutReason;
      const continues = step.onError === 'continue' && outcome.status !== 'cancelled' && !taskTimedOut;
      if (outcome.status === 'succeeded' || outcome.status === 'skipped' || continues) continue;
      status = outcome.status;
      reason = outcome.reason;
      skipReason =
        status === 'cancelled'
          ? 'skipped: the task was cancelled'
          : `skipped: step "${step.name}" ${status === 'timed_out' ? 'timed out' : 'failed'}`;
    }
    if (status === 'cancelled') return { status, reason, steps, results: {} };
    const fileResults = run.resultsFromSteps
      ? run.results.filter((name) => !Object.hasOwn(run.resultsFromSteps!, name))
      : run.results;
    const read = await readResults(run.resultsDir, fileResults);
    if (run.resultsFromSteps && !read.error) {
      const fromSteps = await taskResultsFromSteps(
        run,
        sandbox?.stepDirs.host ?? hostStepDirs(scratchDir).host,
      );
      Object.assign(read.results, fromSteps.results);
      if (fromSteps.error) read.error = fromSteps.error;
    }
    if (read.error && status === 'succeeded') {
      log.system(run.steps.at(-1)?.name ?? '', read.error);
      return { status: 'failed', reason: read.error, steps, results: read.results };
    }
    return { status, reason, steps, results: read.results };
  }
}
