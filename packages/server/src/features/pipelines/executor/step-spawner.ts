import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { chmod, chown, mkdir, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { spawnGroup, type GroupEnd, type GroupProcess } from './process-group.js';
import {
  connectTo,
  READY_TIMEOUT_MS,
  supervisorPaths,
  SupervisorConnection,
  type SpawnOptions,
  type SupervisorPaths,
} from './supervisor-client.js';
import { defaultConcurrency, Semaphore } from './concurrency.js';
import { writeScript } from './step-command.js';
import { HELPER_SOURCE } from './step-spawner-helper.js';
import { startPod, type Pod } from './sandbox/pod.js';

export type { Pod } from './sandbox/pod.js';
export { supervisorPaths, type SpawnOptions, type SupervisorPaths } from './supervisor-client.js';
import type { PodPlan } from './sandbox/sandbox-command.js';

/** After the helper failed to start, how long to spawn in process before trying it again. */
const RETRY_AFTER_MS = 30_000;

export type SpawnerMode = 'helper' | 'in-process';

/**
 * Spawns steps' process groups through the step supervisor (see step-spawner-helper.ts): a
 * detached process per state directory that outlives this server, found on its socket or started
 * on first use and again after it dies; where it cannot start, steps are spawned in this process
 * (`spawnGroup`), as they were before, and the supervisor is tried again 30 s later.
 *
 * At most `slots` process groups run at once (the CPU count by default); a spawn beyond waits for
 * one to end, in order: in the supervisor, or here when there is none. `started` on the returned
 * group tells when it has a slot and runs.
 */
export class StepSpawner {
  private helper: SupervisorConnection | undefined;
  private connecting: Promise<SupervisorConnection | undefined> | undefined;
  private failedAt = 0;
  /** Slots of the groups spawned in this process (the helper keeps its own). */
  private readonly local: Semaphore;
  readonly paths: SupervisorPaths;

  constructor(
    readonly mode: SpawnerMode = 'helper',
    readonly slots: number = defaultConcurrency(),
    /**
     * Where the supervisor keeps its socket and spool (`<data dir>/supervisor`); by default a
     * temporary directory of this spawner's own, which the supervisor removes when it leaves.
     */
    stateDir?: string,
  ) {
    this.local = new Semaphore(slots);
    this.ephemeral = stateDir === undefined;
    this.paths = supervisorPaths(
      stateDir ?? path.join(tmpdir(), `slipway-supervisor-${process.pid}-${randomBytes(4).toString('hex')}`),
    );
  }

  private readonly ephemeral: boolean;

  /** Writes the step's script file (given one), then spawns its process group. */
  async spawnGroup(file: string, args: string[], options: SpawnOptions): Promise<GroupProcess> {
    const helper = this.mode === 'helper' ? await this.readyHelper() : undefined;
    if (helper) return helper.spawn(file, args, options);
    return this.spawnHere(file, args, options);
  }

  /**
   * In this process: waits for a slot (given up when `options.signal` aborts meanwhile: the group
   * then ends `notStarted`), writes what the step needs, and spawns; the slot is held until the
   * group ends.
   */
  private async spawnHere(file: string, args: string[], options: SpawnOptions): Promise<GroupProcess> {
    let release: () => void;
    try {
      release = await this.local.acquire(options.signal, options.tenant);
    } catch {
      return notStarted({ exitCode: null, signal: null, pipesAbandoned: false, notStarted: true });
    }
    const fds: number[] = [];
    try {
      if (options.home) await mkdir(options.home, { recursive: true, mode: 0o700 });
      if (options.home && options.owner) await chmod(options.home, 0o711);
      for (const dir of options.mkdirs ?? []) {
        await mkdir(dir, { recursive: true, mode: 0o700 });
        if (options.owner) await chown(dir, ...options.owner);
      }
      if (options.script) {
        await writeScript(options.script);
        if (options.owner) await chown(options.script.path, ...options.owner);
      }
      for (const path of options.fds ?? [])
        fds.push(openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW));
    } catch (error) {
      fds.forEach((fd) => closeSync(fd));
      release();
      return notStarted({ exitCode: null, signal: null, pipesAbandoned: false, setupError: String(error) });
    }
    let group: GroupProcess;
    try {
      group = spawnGroup(file, args, { ...options, extraFds: fds });
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
    void group.done.finally(release);
    return group;
  }

  /** Makes (or finds, by key) a task's network namespace: in the supervisor when one runs, else here. */
  async pod(plan: PodPlan, key = `pod-${randomBytes(8).toString('hex')}`): Promise<Pod> {
    const helper = this.mode === 'helper' ? await this.readyHelper() : undefined;
    if (helper) return helper.pod(plan, key);
    return startPod(plan);
  }

  /** The group keys the supervisor still holds under `prefix` (a task run's, after a restart). */
  async known(prefix: string): Promise<string[]> {
    const helper = this.mode === 'helper' ? await this.readyHelper() : undefined;
    return helper ? helper.known(prefix) : [];
  }

  /** The ends of the groups under `prefix` are stored: the supervisor may forget them. */
  release(prefix: string): void {
    const helper = this.helper;
    if (helper && !helper.dead) helper.release(prefix);
  }

  /** Removes a task's scratch directory: through the helper when one runs, else here. Never rejects. */
  async removeDir(dir: string): Promise<void> {
    const helper = this.helper;
    if (helper && !helper.dead && (await helper.ready) && (await helper.rm(dir))) return;
    try {
      await rmdir(dir); // most steps leave it empty, and a recursive rm costs several syscalls
    } catch {
      // best effort: a dir that was never made (its parent not a directory) is not an error here
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** The supervisor's pid, while connected to one (for tests). */
  get helperPid(): number | undefined {
    return this.helper && !this.helper.dead ? this.helper.supervisorPid : undefined;
  }

  /** Drops the connection (the supervisor lives on while its groups run). */
  close(): void {
    this.helper?.close();
  }

  private async readyHelper(): Promise<SupervisorConnection | undefined> {
    if (this.helper && !this.helper.dead) {
      if (await this.helper.ready) return this.helper;
    }
    if (!this.connecting) {
      if (Date.now() - this.failedAt < RETRY_AFTER_MS) return undefined;
      this.connecting = this.connectOrStart().finally(() => (this.connecting = undefined));
    }
    return this.connecting;
  }

  private async connectOrStart(): Promise<SupervisorConnection | undefined> {
    let socket = await connectTo(this.paths.socket);
    if (!socket && (await this.startSupervisor())) socket = await connectTo(this.paths.socket);
    if (!socket) {
      this.failedAt = Date.now();
      return undefined;
    }
    const helper = new SupervisorConnection(socket, (dead) => {
      if (this.helper === dead) this.helper = undefined;
    });
    this.helper = helper;
    if (await helper.ready) return helper;
    this.failedAt = Date.now();
    return undefined;
  }

  /** Starts the supervisor, detached (its own session: it outlives this process); true once it listens. */
  private startSupervisor(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      let log: number | 'ignore' = 'ignore';
      try {
        mkdirSync(this.paths.dir, { recursive: true, mode: 0o700 });
        mkdirSync(path.dirname(this.paths.socket), { recursive: true, mode: 0o700 });
        log = openSync(this.paths.log, 'a', 0o600);
      } catch {
        // no log file: its output is dropped
      }
      let child;
      try {
        child = spawn(process.execPath, ['--max-old-space-size=64', '-e', HELPER_SOURCE], {
          detached: true,
          stdio: ['ignore', log, log, 'ipc'],
          env: {
            PATH: process.env.PATH ?? '',
            SLIPWAY_STEP_SLOTS: String(this.slots),
            SLIPWAY_SUPERVISOR_SOCKET: this.paths.socket,
            SLIPWAY_SUPERVISOR_SPOOL: this.paths.spool,
            ...(this.ephemeral ? { SLIPWAY_SUPERVISOR_REMOVE_DIR: this.paths.dir } : {}),
          },
        });
      } catch {
        resolve(false);
        return;
      } finally {
        if (typeof log === 'number') closeSync(log);
      }
      const timer = setTimeout(() => done(false), READY_TIMEOUT_MS);
      const done = (ok: boolean) => {
        clearTimeout(timer);
        child.removeAllListeners();
        if (child.connected) child.disconnect();
        child.unref();
        resolve(ok);
      };
      child.on('message', (m: { t?: string }) => m.t === 'listening' && done(true));
      // exit 3: another supervisor holds the state dir (started meanwhile): connect to it
      child.on('exit', (code) => done(code === 3));
      child.on('error', () => done(false));
    });
  }
}

function notStarted(end: GroupEnd): GroupProcess {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.end();
  stderr.end();
  const done = Promise.resolve(end);
  return {
    pid: undefined,
    startedAt: undefined,
    stdout,
    stderr,
    done,
    started: Promise.resolve(false),
    terminate: () => {},
  };
}

/** The process-wide spawner of executors given none (tests): a supervisor of this process's own. */
let shared: StepSpawner | undefined;
export function sharedStepSpawner(): StepSpawner {
  shared ??= new StepSpawner('helper');
  return shared;
}
