import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { chmod, chown, mkdir, rm, rmdir } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import {
  KILL_GRACE_MS,
  signalGroup,
  spawnGroup,
  type GroupEnd,
  type GroupOptions,
  type GroupProcess,
} from './process-group.js';
import { defaultConcurrency, Semaphore } from './concurrency.js';
import { writeScript, type ScriptFile } from './step-command.js';
import { HELPER_SOURCE } from './step-spawner-helper.js';
import { startPod } from './sandbox/pod.js';
import type { PodPlan } from './sandbox/sandbox-command.js';

/** How long the helper gets to say it is ready before steps are spawned in process instead. */
const READY_TIMEOUT_MS = 5000;
/** After the helper failed to start, how long to spawn in process before trying it again. */
const RETRY_AFTER_MS = 30_000;

export type SpawnerMode = 'helper' | 'in-process';

interface Pending {
  /** Bytes taken in since the last ack to the helper. */
  unacked: number;
  stdout: PassThrough;
  stderr: PassThrough;
  pid: number | undefined;
  startedAt: number | undefined;
  /** The process started (true, on pid), or the spawn ended without starting (false). */
  start: (started: boolean) => void;
  finish: (end: GroupEnd) => void;
}

type HelperMessage =
  | { t: 'ready' }
  | { t: 'pid'; id: number; pid: number; at: number }
  | { t: 'out'; id: number; s: 0 | 1; d: string }
  | { t: 'rmdone'; id: number; error?: string }
  | { t: 'podready'; id: number; pid?: number; error?: string }
  | {
      t: 'end';
      id: number;
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      pipesAbandoned: boolean;
      endedAt?: number;
      spawnError?: { code?: string; message: string };
      setupError?: string;
      scratchRemoved?: boolean;
      notStarted?: boolean;
    };

export type SpawnOptions = GroupOptions & {
  /** The task's scratch dir (HOME), created before the spawn when missing. */
  home?: string;
  script?: ScriptFile;
  /** Remove this dir once the group has ended (the task's last step); the helper only. */
  removeAfter?: string;
  /** Aborted while the spawn waits for a slot in this process: it is given up (`notStarted`). */
  signal?: AbortSignal;
  /** Whose step this is (the organisation): slots are shared fairly between tenants. */
  tenant?: string;
  /** Directories to create (0700) before the spawn, owned by `owner` when given. */
  mkdirs?: string[];
  /** uid and gid given the created directories and the script file (the sandbox's host user). */
  owner?: [number, number];
  /** Paths opened before the spawn and handed to the child as descriptors 3, 4, … (bwrap binds them). */
  fds?: string[];
};

/** A task's network namespace (see sandbox/pod.ts): steps join it through `/proc/<pid>/ns/net`. */
export interface Pod {
  pid: number;
  stop(): void;
}

/** One running helper process and the groups it spawned that have not ended yet. */
class Helper {
  readonly ready: Promise<boolean>;
  readonly groups = new Map<number, Pending>();
  private readonly removals = new Map<number, (ok: boolean) => void>();
  private readonly pods = new Map<number, (answer: { pid?: number; error?: string }) => void>();
  dead = false;
  private nextId = 1;

  constructor(
    private readonly child: ChildProcess,
    private readonly onDeath: (helper: Helper) => void,
  ) {
    this.busy(); // until it is ready: a caller waits for it
    this.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        resolve(false);
        this.kill();
      }, READY_TIMEOUT_MS);
      timer.unref();
      child.on('message', (m: HelperMessage) => {
        if (m.t === 'ready') {
          clearTimeout(timer);
          this.idleIfNothingRuns();
          resolve(true);
        } else this.receive(m);
      });
      const gone = () => {
        clearTimeout(timer);
        resolve(false);
        this.died();
      };
      child.on('error', gone);
      child.once('exit', gone);
    });
  }

  /** Removes a directory (recursively); false when the helper could not. */
  rm(dir: string): Promise<boolean> {
    const id = this.nextId++;
    this.busy();
    return new Promise<boolean>((resolve) => {
      this.removals.set(id, resolve);
      this.child.send({ t: 'rm', id, dir });
    });
  }

  /** Creates a task's network namespace; rejects with the helper's reason. */
  pod(plan: PodPlan): Promise<Pod> {
    const id = this.nextId++;
    this.busy();
    return new Promise<Pod>((resolve, reject) => {
      this.pods.set(id, ({ pid, error }) => {
        if (pid === undefined) {
          reject(new Error(error ?? 'the network namespace could not be made'));
          return;
        }
        resolve({ pid, stop: () => this.unpod(id) });
      });
      this.child.send({ t: 'pod', id, holder: plan.holder, slirp: plan.slirp });
    });
  }

  private unpod(id: number): void {
    if (!this.pods.delete(id)) return;
    if (!this.dead) this.child.send({ t: 'unpod', id });
    this.idleIfNothingRuns();
  }

  spawn(file: string, args: string[], options: SpawnOptions): GroupProcess {
    const id = this.nextId++;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let finish: (end: GroupEnd) => void = () => {};
    const done = new Promise<GroupEnd>((resolve) => (finish = resolve));
    let start: (started: boolean) => void = () => {};
    const started = new Promise<boolean>((resolve) => (start = resolve));
    const pending: Pending = {
      unacked: 0,
      stdout,
      stderr,
      pid: undefined,
      startedAt: undefined,
      start,
      finish: (end) => {
        this.groups.delete(id);
        this.idleIfNothingRuns();
        stdout.end();
        stderr.end();
        start(false); // (no-op when it started)
        finish(end);
      },
    };
    this.groups.set(id, pending);
    this.busy();
    const grace = options.killGraceMs ?? KILL_GRACE_MS;
    const { script, home, removeAfter, mkdirs, owner, fds } = options;
    this.child.send({
      t: 'spawn',
      ...{ id, file, args, cwd: options.cwd, env: options.env, grace, script, home, removeAfter },
      ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
      ...(mkdirs ? { mkdirs } : {}),
      ...(owner ? { owner } : {}),
      ...(fds ? { fds } : {}),
    });
    let terminated = false;
    return {
      get pid() {
        return pending.pid;
      },
      get startedAt() {
        return pending.startedAt;
      },
      stdout,
      stderr,
      done,
      started,
      terminate: () => {
        if (terminated || !this.groups.has(id)) return;
        terminated = true;
        this.child.send({ t: 'term', id });
      },
    };
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  private idleIfNothingRuns(): void {
    if (this.groups.size === 0 && this.removals.size === 0 && this.pods.size === 0) this.idle();
  }

  private receive(m: HelperMessage): void {
    if (m.t === 'ready') return;
    if (m.t === 'podready') {
      const answer = this.pods.get(m.id);
      if (m.pid === undefined) this.pods.delete(m.id);
      answer?.(m);
      return;
    }
    if (m.t === 'rmdone') {
      const resolve = this.removals.get(m.id);
      this.removals.delete(m.id);
      this.idleIfNothingRuns();
      resolve?.(m.error === undefined);
      return;
    }
    const pending = this.groups.get(m.id);
    if (!pending) return;
    if (m.t === 'pid') {
      pending.pid = m.pid;
      pending.startedAt = m.at;
      pending.start(true);
    } else if (m.t === 'out') {
      const data = Buffer.from(m.d, 'latin1');
      (m.s === 0 ? pending.stdout : pending.stderr).write(data);
      // acked after this turn of the event loop: the helper sends more once the lines are handled
      if (pending.unacked === 0)
        setImmediate(() => {
          const n = pending.unacked;
          pending.unacked = 0;
          if (!this.dead && this.groups.has(m.id)) this.child.send({ t: 'ack', id: m.id, n });
        });
      pending.unacked += data.length;
    } else {
      const spawnError = m.spawnError
        ? Object.assign(new Error(m.spawnError.message), { code: m.spawnError.code })
        : undefined;
      pending.finish({
        exitCode: m.exitCode,
        signal: m.signal,
        pipesAbandoned: m.pipesAbandoned,
        ...(m.endedAt !== undefined ? { endedAt: m.endedAt } : {}),
        ...(spawnError ? { spawnError } : {}),
        ...(m.setupError !== undefined ? { setupError: m.setupError } : {}),
        ...(m.scratchRemoved ? { scratchRemoved: true } : {}),
        ...(m.notStarted ? { notStarted: true } : {}),
      });
    }
  }

  /** The helper is gone: its groups are killed here and end as killed by SIGKILL. */
  private died(): void {
    if (this.dead) return;
    this.dead = true;
    for (const pending of [...this.groups.values()]) {
      if (pending.pid !== undefined) signalGroup(pending.pid, 'SIGKILL');
      pending.finish({ exitCode: null, signal: 'SIGKILL', pipesAbandoned: false });
    }
    for (const resolve of this.removals.values()) resolve(false);
    this.removals.clear();
    for (const answer of this.pods.values()) answer({ error: 'the step spawner helper ended' });
    this.pods.clear();
    this.onDeath(this);
  }

  /** The channel holds the server's event loop open only while a step runs through it. */
  private busy(): void {
    this.child.ref();
    (this.child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private idle(): void {
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}

/**
 * Spawns steps' process groups through one long-lived helper process (see step-spawner-helper.ts),
 * started on first use and again after it dies; where it cannot start, steps are spawned in this
 * process (`spawnGroup`), as they were before, and the helper is tried again 30 s later.
 *
 * At most `slots` process groups run at once (the CPU count by default); a spawn beyond waits for
 * one to end, in order: in the helper, or here when there is none. `started` on the returned
 * group tells when it has a slot and runs.
 */
export class StepSpawner {
  private helper: Helper | undefined;
  private failedAt = 0;
  /** Slots of the groups spawned in this process (the helper keeps its own). */
  private readonly local: Semaphore;

  constructor(
    readonly mode: SpawnerMode = 'helper',
    readonly slots: number = defaultConcurrency(),
  ) {
    this.local = new Semaphore(slots);
  }

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
      for (const path of options.fds ?? []) fds.push(openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW));
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

  /** Makes a task's network namespace: through the helper when one runs, else from this process. */
  async pod(plan: PodPlan): Promise<Pod> {
    const helper = this.mode === 'helper' ? await this.readyHelper() : undefined;
    if (helper) return helper.pod(plan);
    return startPod(plan);
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

  /** Whether the last spawn went through a running helper (for tests). */
  get helperPid(): number | undefined {
    return this.helper && !this.helper.dead ? this.helperChildPid : undefined;
  }

  private helperChildPid: number | undefined;

  private async readyHelper(): Promise<Helper | undefined> {
    if (!this.helper && Date.now() - this.failedAt >= RETRY_AFTER_MS) this.helper = this.startHelper();
    const helper = this.helper;
    if (!helper) return undefined;
    if (await helper.ready) return helper.dead ? this.readyHelper() : helper;
    if (this.helper === helper) this.helper = undefined;
    this.failedAt = Date.now();
    return undefined;
  }

  private startHelper(): Helper | undefined {
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, ['--max-old-space-size=64', '-e', HELPER_SOURCE], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: { PATH: process.env.PATH ?? '', SLIPWAY_STEP_SLOTS: String(this.slots) },
      });
    } catch {
      this.failedAt = Date.now();
      return undefined;
    }
    this.helperChildPid = child.pid;
    return new Helper(child, (dead) => {
      if (this.helper === dead) this.helper = undefined;
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

/** The process-wide spawner: one helper per server process, shared by its local executors. */
let shared: StepSpawner | undefined;
export function sharedStepSpawner(): StepSpawner {
  shared ??= new StepSpawner('helper');
  return shared;
}
