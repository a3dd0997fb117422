import { spawn } from 'node:child_process';
import type { TaskIo } from '../executor.js';
import { LineSplitter } from '../line-splitter.js';
import type { GroupProcess } from '../process-group.js';
import { planStepCommand } from '../step-command.js';
import { fillStepValues } from '../step-values.js';
import { StepSpawner } from '../step-spawner.js';
import type { TaskLog } from '../task-log.js';
import type { ResolvedSidecar } from '../../definition/resolve-task-run.js';
import type { StepSandbox } from './step-sandbox.js';

/** How often a readiness probe runs (Kubernetes' periodSeconds, shortened for CI tasks). */
export const READINESS_POLL_MS = 200;
/** How long sidecars may take to be ready when the task has no timeout of its own. */
export const READINESS_LIMIT_MS = 120_000;
const PROBE_TIMEOUT_MS = 5000;
const KILL_GRACE_MS = 2000;

/**
 * Sidecars are spawned from this process, outside the step slots: a sidecar runs as long as the
 * task's steps, and holding a slot for it could leave the steps of tasks with sidecars waiting
 * for one another's slots.
 */
let sidecarSpawner: StepSpawner | undefined;
function spawner(): StepSpawner {
  sidecarSpawner ??= new StepSpawner('in-process', Number.MAX_SAFE_INTEGER);
  return sidecarSpawner;
}

interface Running {
  sidecar: ResolvedSidecar;
  group: GroupProcess;
  ended: boolean;
  end: Promise<void>;
}

/** Runs a probe process to its end; true when it exits 0 within `timeoutMs`. */
function exitsZero(
  timeoutMs: number,
  file: string,
  args: string[],
  env: Record<string, string> = { PATH: process.env.PATH ?? '' },
): Promise<boolean> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(file, args, { stdio: 'ignore', env, timeout: timeoutMs, killSignal: 'SIGKILL' });
    } catch {
      resolve(false);
      return;
    }
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/**
 * A task's sidecars (Tekton `spec.sidecars`): each in its own sandbox, made as a step's is, in the
 * task's network namespace, so that the steps reach them at `localhost:<port>`. `start` returns
 * once every sidecar is ready (its readiness probe passed, or, without one, it started) and
 * throws naming a sidecar that ended or did not get ready in time; `stop` ends them (SIGTERM to
 * their process groups, SIGKILL after a grace period) and waits for their ends.
 */
export class Sidecars {
  private readonly running: Running[] = [];
  private stopping = false;

  constructor(
    private readonly sandbox: StepSandbox,
    private readonly sidecars: readonly ResolvedSidecar[],
    private readonly scratchDir: string,
    private readonly tenant: string | undefined,
    private readonly netnsPid: () => number | undefined,
  ) {}

  async start(io: TaskIo, log: TaskLog, signal: AbortSignal, timeoutMs: number | undefined): Promise<void> {
    const deadline =
      Date.now() + Math.min(timeoutMs && timeoutMs > 0 ? timeoutMs : READINESS_LIMIT_MS, READINESS_LIMIT_MS);
    for (const [index, sidecar] of this.sidecars.entries()) await this.spawn(sidecar, index, io, log, signal);
    await Promise.all(this.running.map((r) => this.ready(r, log, signal, deadline)));
  }

  private async spawn(
    sidecar: ResolvedSidecar,
    index: number,
    io: TaskIo,
    log: TaskLog,
    signal: AbortSignal,
  ): Promise<void> {
    const sandbox = this.sandbox;
    const label = `sidecar "${sidecar.name}"`;
    const { root, image } = await sandbox.image(sidecar, signal).catch((error: Error) => {
      throw new Error(`${label}: ${error.message}`);
    });
    const secrets: Record<string, string> = {};
    for (const { name, secret, key, optional } of sidecar.secretEnv) {
      try {
        secrets[name] = await io.secretValue(secret, key);
        log.masker.add(secrets[name]!);
      } catch (error) {
        if (!optional)
          throw new Error(
            `${label}: secret "${secret}" (key "${key}") for ${name} could not be read: ${(error as Error).message}`,
          );
      }
    }
    // `$(credentials.path)` (validation keeps step results and exit codes out of sidecars)
    const filled = await fillStepValues(sidecar, sandbox.stepDirs);
    const command = planStepCommand(filled, index, this.scratchDir, sandbox.scriptsDir, image?.config);
    const env = sandbox.env(image, { ...filled.env, ...secrets });
    const cwd = await sandbox.workingDir(filled, image);
    const plan = sandbox.command(filled, [command.file, ...command.args], cwd, image, root);
    log.system(sidecar.name, `Starting ${label} (image ${sidecar.image || 'none'})`);
    const group = await spawner().spawnGroup(plan.file, plan.args, {
      cwd: '/',
      env,
      killGraceMs: KILL_GRACE_MS,
      ...(command.script ? { script: command.script } : {}),
      home: this.scratchDir,
      fds: plan.fds,
      mkdirs: sandbox.scratchDirs,
      ...(sandbox.owner ? { owner: sandbox.owner } : {}),
      ...(this.tenant !== undefined ? { tenant: this.tenant } : {}),
    });
    const splitters = (['stdout', 'stderr'] as const).map((stream) => {
      const splitter = new LineSplitter(
        (text) => log.line(sidecar.name, stream, text),
        undefined,
        log.masker,
      );
      group[stream].on('data', (chunk: Buffer) => splitter.push(chunk));
      return splitter;
    });
    const running: Running = { sidecar, group, ended: false, end: Promise.resolve() };
    running.end = group.done.then((end) => {
      running.ended = true;
      splitters.forEach((s) => s.flush());
      if (this.stopping) return;
      const how =
        end.setupError ??
        end.spawnError?.message ??
        (end.exitCode !== null
          ? `exited with code ${end.exitCode}`
          : `was killed by signal ${end.signal ?? 'unknown'}`);
      // recorded in the task's log; the task goes on, as in Tekton, whose steps do not wait for sidecars
      log.system(
        sidecar.name,
        `${label} ${end.setupError || end.spawnError ? `could not start: ${how}` : how}${
          end.exitCode === 0 ? '' : ' (the steps go on without it, as in Tekton)'
        }`,
      );
    });
    this.running.push(running);
  }

  private async ready(running: Running, log: TaskLog, signal: AbortSignal, deadline: number): Promise<void> {
    const { sidecar, group } = running;
    const label = `sidecar "${sidecar.name}"`;
    if (!(await group.started)) throw new Error(`${label} could not be started`);
    const probe = sidecar.readiness;
    for (;;) {
      // Tekton counts a sidecar that has ended as ready (SidecarsReady): the steps run without it
      if (running.ended) return;
      if (signal.aborted) throw new Error('the task was cancelled while its sidecars started');
      if (this.stopping) throw new Error(`${label}: the sidecars were stopped before it was ready`);
      if (!probe || (await this.probe(sidecar))) break;
      if (running.ended) return;
      if (Date.now() >= deadline)
        throw new Error(`${label} was not ready in time (its readiness probe never passed)`);
      await new Promise((resolve) => setTimeout(resolve, READINESS_POLL_MS));
    }
    log.system(sidecar.name, `${label} is ready`);
  }

  /** One run of the readiness probe: a TCP connect inside the task's network, or the command in a sandbox like the sidecar's. */
  private async probe(sidecar: ResolvedSidecar): Promise<boolean> {
    const { readiness } = sidecar;
    if (readiness?.tcpPort !== undefined) {
      const pid = this.netnsPid();
      if (pid === undefined) return false;
      const { nsenter } = this.sandbox.tools;
      const connect = `const s=require('net').connect(${readiness.tcpPort},'127.0.0.1');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1))`;
      return exitsZero(readiness.timeoutMs ?? PROBE_TIMEOUT_MS, nsenter ?? 'nsenter', [
        `--net=/proc/${pid}/ns/net`,
        '--',
        process.execPath,
        '-e',
        connect,
      ]);
    }
    if (!readiness?.exec) return true;
    const { root, image } = await this.sandbox.image(sidecar, new AbortController().signal);
    const plan = this.sandbox.command(sidecar, readiness.exec, '/', image, root);
    const group = await spawner().spawnGroup(plan.file, plan.args, {
      cwd: '/',
      env: this.sandbox.env(image, sidecar.env),
      killGraceMs: 200,
      fds: plan.fds,
    });
    group.stdout.resume();
    group.stderr.resume();
    const timer = setTimeout(() => group.terminate(), readiness.timeoutMs ?? PROBE_TIMEOUT_MS);
    const end = await group.done;
    clearTimeout(timer);
    return end.exitCode === 0;
  }

  /** Ends every sidecar and waits for their process groups to be gone. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const running of this.running) running.group.terminate();
    await Promise.all(this.running.map((r) => r.end));
  }
}
