import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;
/** How long to keep reading pipes after the group is gone (only a process that escaped it holds them). */
const PIPE_GRACE_MS = 1000;
const POLL_MS = 25;

export interface GroupEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (ENOENT, EACCES, …). */
  spawnError?: NodeJS.ErrnoException;
  /** True when pipes were still held open after the group ended and were closed by us. */
  pipesAbandoned: boolean;
  /** Set when the step's script file could not be written before the spawn. */
  setupError?: string;
  /** The helper removed the task's scratch dir after this (last) step, as asked. */
  scratchRemoved?: boolean;
  /** It was still waiting for a slot when it was terminated: it never ran. */
  notStarted?: boolean;
  /**
   * When the leader exited (epoch ms), as the process that spawned it saw it: a step's end time
   * that does not wait for the server's event loop to read the news.
   */
  endedAt?: number;
}

export interface GroupProcess {
  readonly pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Resolves when the leader has exited, its group is gone or killed, and the pipes are closed. */
  readonly done: Promise<GroupEnd>;
  /**
   * Resolves true when the process has started, or false at its end when it never did: a spawn
   * may wait for a free slot first (see StepSpawner).
   */
  readonly started: Promise<boolean>;
  /** When the process started (epoch ms), as the process that spawned it saw it; once it has. */
  readonly startedAt: number | undefined;
  /** SIGTERM to the whole group, then SIGKILL after the grace period. Idempotent. */
  terminate(): void;
}

export interface GroupOptions {
  cwd: string;
  env: Record<string, string>;
  killGraceMs?: number;
  /** Open descriptors handed to the child as 3, 4, … (the sandbox's bound directories). */
  extraFds?: number[];
}

/** Sends a signal to every process of a group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * Spawns a process as the leader of its own process group (`detached`), stdin ignored, stdout and
 * stderr piped. When the leader exits the rest of its group is killed at once, as a container's
 * processes die with its PID 1, so a step never leaves background processes behind.
 */
export function spawnGroup(file: string, args: string[], options: GroupOptions): GroupProcess {
  const grace = options.killGraceMs ?? KILL_GRACE_MS;
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.extraFds ?? [])],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  const pid = child.pid;
  const startedAt = pid === undefined ? undefined : Date.now();
  let exit: { code: number | null; signal: NodeJS.Signals | null; at: number } | undefined;
  let pipesClosed = false;
  let pipesAbandoned = false;
  let terminating = false;
  let groupSettled = false; // group gone, or SIGKILL sent
  let pipeTimerStarted = false;
  let finish: (end: GroupEnd) => void = () => {};
  const timers: NodeJS.Timeout[] = [];
  const done = new Promise<GroupEnd>((resolve) => (finish = resolve));

  const settle = () => {
    if (!exit || !groupSettled) return;
    if (!pipesClosed) {
      if (pipeTimerStarted) return;
      pipeTimerStarted = true;
      timers.push(
        setTimeout(() => {
          if (pipesClosed) return;
          pipesAbandoned = true;
          child.stdout.destroy();
          child.stderr.destroy();
          pipesClosed = true;
          settle();
        }, PIPE_GRACE_MS),
      );
      return;
    }
    timers.forEach(clearTimeout);
    finish({ exitCode: exit.code, signal: exit.signal, pipesAbandoned, endedAt: exit.at });
  };

  const killGroup = () => {
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    groupSettled = true;
    settle();
  };

  child.on('error', (error: NodeJS.ErrnoException) => {
    if (pid !== undefined) return; // errors after a successful spawn (e.g. a failed kill) change nothing
    finish({ exitCode: null, signal: null, spawnError: error, pipesAbandoned: false });
  });
  child.on('exit', (code, signal) => {
    exit = { code, signal, at: Date.now() };
    if (!terminating) killGroup();
    else settle();
  });
  let openPipes = 2;
  const onPipeClosed = () => {
    openPipes -= 1;
    if (openPipes > 0) return;
    pipesClosed = true;
    settle();
  };
  child.stdout.on('close', onPipeClosed);
  child.stderr.on('close', onPipeClosed);

  const terminate = () => {
    if (terminating || groupSettled || pid === undefined) return;
    terminating = true;
    if (!signalGroup(pid, 'SIGTERM')) {
      groupSettled = true;
      settle();
      return;
    }
    const deadline = Date.now() + grace;
    const poll = () => {
      if (groupSettled) return;
      if (!signalGroup(pid, 0)) {
        groupSettled = true;
        settle();
      } else if (Date.now() >= deadline) {
        killGroup();
      } else {
        timers.push(setTimeout(poll, POLL_MS));
      }
    };
    timers.push(setTimeout(poll, POLL_MS));
  };

  return {
    pid,
    stdout: child.stdout,
    stderr: child.stderr,
    done,
    terminate,
    started: Promise.resolve(true),
    startedAt,
  };
}
