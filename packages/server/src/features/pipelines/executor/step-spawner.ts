import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { chmod, chown, mkdir, rm, rmdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
import { startPod, type Pod } from './sandbox/pod.js';

export type { Pod } from './sandbox/pod.js';
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
  | { t: 'ready'; pid: number }
  | { t: 'knownis'; id: number; keys: string[] }
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
  /**
   * The group's stable name (`<task run>:<attempt>:<step>`): a spawn whose key the supervisor
   * knows re-attaches to that group (a restarted server) instead of starting another.
   */
  key?: string;
};

/** The supervisor's socket, its spool and its log, under a state directory (0700). */
export interface SupervisorPaths {
  dir: string;
  socket: string;
  spool: string;
  log: string;
}

/** A Unix socket path must stay under ~100 bytes: a long state dir gets one under /tmp. */
export function supervisorPaths(stateDir: string): SupervisorPaths {
  const dir = path.resolve(stateDir);
  let socketDir = dir;
  if (Buffer.byteLength(path.join(dir, 's.sock')) > 100) {
    const hash = createHash('sha256').update(dir).digest('hex').slice(0, 16);
    socketDir = path.join(tmpdir(), `slipway-sv-${hash}`);
  }
  return {
    dir,
    socket: path.join(socketDir, 's.sock'),
    spool: path.join(dir, 'spool'),
    log: path.join(dir, 'supervisor.log'),
  };
}

/** The connection to the supervisor and the groups spawned or re-attached through it. */
class Helper {
  readonly ready: Promise<boolean>;
  readonly groups = new Map<number, Pending>();
  private readonly removals = new Map<number, (ok: boolean) => void>();
  private readonly pods = new Map<number, (answer: { pid?: number; error?: string }) => void>();
  private readonly queries = new Map<number, (keys: string[]) => void>();
  dead = false;
  supervisorPid: number | undefined;
  private nextId = 1;

  constructor(
    private readonly socket: Socket,
    private readonly onDeath: (helper: Helper) => void,
  ) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    this.ready = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        resolve(false);
        socket.destroy();
      }, READY_TIMEOUT_MS);
      timer.unref();
      let buffered = '';
      socket.on('data', (chunk: string) => {
        buffered += chunk;
        let at: number;
        while ((at = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
          if (!line) continue;
          const m = JSON.parse(line) as HelperMessage;
          if (m.t === 'ready') {
            clearTimeout(timer);
            this.supervisorPid = m.pid;
            this.idleIfNothingRuns();
            resolve(true);
          } else this.receive(m);
        }
      });
      const gone = () => {
        clearTimeout(timer);
        resolve(false);
        this.died();
      };
      socket.on('error', gone);
      socket.on('close', gone);
    });
  }

  private send(message: object): void {
    if (!this.dead) this.socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Removes a directory (recursively); false when the helper could not. */
  rm(dir: string): Promise<boolean> {
    const id = this.nextId++;
    this.busy();
    return new Promise<boolean>((resolve) => {
      this.removals.set(id, resolve);
      this.send({ t: 'rm', id, dir });
    });
  }

  /** The keys the supervisor holds (running, or ended and not yet released) that start with `prefix`. */
  known(prefix: string): Promise<string[]> {
    const id = this.nextId++;
    this.busy();
    return new Promise<string[]>((resolve) => {
      this.queries.set(id, resolve);
      this.send({ t: 'known', id, prefix });
    });
  }

  /** The server has stored these groups' ends: the supervisor forgets them and their spools. */
  release(prefix: string): void {
    this.send({ t: 'release', prefix });
  }

  /** Creates (or finds, by key) a task's network namespace; rejects with the supervisor's reason. */
  pod(plan: PodPlan, key: string): Promise<Pod> {
    const id = this.nextId++;
    this.busy();
    return new Promise<Pod>((resolve, reject) => {
      this.pods.set(id, ({ pid, error }) => {
        this.pods.delete(id);
        this.idleIfNothingRuns();
        if (pid === undefined) {
          reject(new Error(error ?? 'the network namespace could not be made'));
          return;
        }
        resolve({ pid, stop: () => this.send({ t: 'unpod', key }) });
      });
      this.send({ t: 'pod', id, key, holder: plan.holder, slirp: plan.slirp });
    });
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
    const key = options.key ?? `once-${process.pid}-${randomBytes(8).toString('hex')}`;
    this.send({
      t: 'spawn',
      ...{ id, key, file, args, cwd: options.cwd, env: options.env, grace, script, home, removeAfter },
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
        this.send({ t: 'term', id });
      },
    };
  }

  close(): void {
    this.socket.destroy();
  }

  private idleIfNothingRuns(): void {
    if (this.groups.size === 0 && this.removals.size === 0 && this.pods.size === 0 && this.queries.size === 0)
      this.idle();
  }

  private receive(m: HelperMessage): void {
    if (m.t === 'ready') return;
    if (m.t === 'podready') {
      this.pods.get(m.id)?.(m);
      return;
    }
    if (m.t === 'knownis') {
      const resolve = this.queries.get(m.id);
      this.queries.delete(m.id);
      this.idleIfNothingRuns();
      resolve?.(m.keys);
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
          if (!this.dead && this.groups.has(m.id)) this.send({ t: 'ack', id: m.id, n });
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

  /**
   * The connection is gone (the supervisor died, or was killed): its groups are killed here and
   * end as killed by SIGKILL. (The server dying is the other way round: the supervisor lives on.)
   */
  private died(): void {
    if (this.dead) return;
    this.dead = true;
    for (const pending of [...this.groups.values()]) {
      if (pending.pid !== undefined) signalGroup(pending.pid, 'SIGKILL');
      pending.finish({ exitCode: null, signal: 'SIGKILL', pipesAbandoned: false });
    }
    for (const resolve of this.removals.values()) resolve(false);
    this.removals.clear();
    for (const answer of this.pods.values()) answer({ error: 'the step supervisor ended' });
    this.pods.clear();
    for (const resolve of this.queries.values()) resolve([]);
    this.queries.clear();
    this.onDeath(this);
  }

  /** The socket holds the server's event loop open only while a step runs through it. */
  private busy(): void {
    this.socket.ref();
  }

  private idle(): void {
    this.socket.unref();
  }
}

function connectTo(socketPath: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}

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
  private helper: Helper | undefined;
  private connecting: Promise<Helper | undefined> | undefined;
  private failedAt = 0;
  /** Slots of the groups spawned in this process (the helper keeps its own). */
  private readonly local: Semaphore;
  readonly paths: SupervisorPaths;

  constructor(
    readonly mode: SpawnerMode = 'helper',
    readonly slots: number = defaultConcurrency(),
    /**
     * Where the supervisor keeps its socket and spool (`<data dir>/supervisor`); by default a
     * directory of this spawner's own (a supervisor serves one connection at a time).
     */
    stateDir: string = path.join(
      tmpdir(),
      `slipway-supervisor-${process.pid}-${randomBytes(4).toString('hex')}`,
    ),
  ) {
    this.local = new Semaphore(slots);
    this.paths = supervisorPaths(stateDir);
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

  private async readyHelper(): Promise<Helper | undefined> {
    if (this.helper && !this.helper.dead) {
      if (await this.helper.ready) return this.helper;
    }
    if (!this.connecting) {
      if (Date.now() - this.failedAt < RETRY_AFTER_MS) return undefined;
      this.connecting = this.connectOrStart().finally(() => (this.connecting = undefined));
    }
    return this.connecting;
  }

  private async connectOrStart(): Promise<Helper | undefined> {
    let socket = await connectTo(this.paths.socket);
    if (!socket && (await this.startSupervisor())) socket = await connectTo(this.paths.socket);
    if (!socket) {
      this.failedAt = Date.now();
      return undefined;
    }
    const helper = new Helper(socket, (dead) => {
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
