import { createHash, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import {
  KILL_GRACE_MS,
  signalGroup,
  type GroupEnd,
  type GroupOptions,
  type GroupProcess,
} from './process-group.js';
import type { ScriptFile } from './step-command.js';
import type { Pod } from './sandbox/pod.js';
import type { PodPlan } from './sandbox/sandbox-command.js';

/**
 * The server's side of the step supervisor's socket (decision 021; the supervisor itself is
 * step-spawner-helper.ts): its paths, and one connection with the groups spawned or re-attached
 * through it. StepSpawner (step-spawner.ts) finds or starts the supervisor and uses this.
 */
/** How long the helper gets to say it is ready before steps are spawned in process instead. */
export const READY_TIMEOUT_MS = 5000;

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
export class SupervisorConnection {
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
    private readonly onDeath: (connection: SupervisorConnection) => void,
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
    const ephemeral = options.key === undefined;
    this.send({
      t: 'spawn',
      ...{ id, key, file, args, cwd: options.cwd, env: options.env, grace, script, home, removeAfter },
      ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
      ...(ephemeral ? { ephemeral } : {}),
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

export function connectTo(socketPath: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}
