import type { StepOutcome, StepStatus, TaskIo } from './executor.js';
import { join } from 'node:path';
import { formatDuration } from './format-duration.js';
import { LineSplitter } from './line-splitter.js';
import type { GroupEnd, GroupProcess } from './process-group.js';
import type { StepSpawner } from './step-spawner.js';
import { planStepCommand, stepCwd, stepEnv, StepSetupError, type StepCommand } from './step-command.js';
import type { TaskSandbox } from './sandbox/task-sandbox.js';
import type { TaskLog } from './task-log.js';
import type { ResolvedStep, ResolvedTaskRun } from './types.js';
import { fillStepValues, type StepDirs } from './step-values.js';

export interface StepRun {
  run: ResolvedTaskRun;
  step: ResolvedStep;
  index: number;
  scratchDir: string;
  io: TaskIo;
  log: TaskLog;
  /** The task's cancellation. */
  signal: AbortSignal;
  /** When the task's own timeout ends this attempt (epoch ms); unknown until its first step runs. */
  taskDeadline?: number;
  /** The step's process has started (it got a slot). */
  onStarted?: () => void;
  killGraceMs?: number;
  path?: string;
  /** Spawns the step's process group (through the helper process, or in this one). */
  spawner: StepSpawner;
  /** The step's process group's name in the supervisor (re-attached after a restart). */
  key?: string;
  /** The task's sandbox (decision 019); absent: the step runs on the host (unsandboxed mode). */
  sandbox?: TaskSandbox;
  /** The task's last step: the scratch dir may go once it has ended (see `onScratchRemoved`). */
  removeScratchAfter?: boolean;
  onScratchRemoved?: () => void;
}

/** Unsandboxed steps see the attempt's step directories at their host paths. */
export function hostStepDirs(scratchDir: string): StepDirs {
  return {
    host: join(scratchDir, 'steps'),
    inside: join(scratchDir, 'steps'),
    credentials: join(scratchDir, 'creds'),
  };
}

/** The reason an abort carries, when the caller gave one as text. */
export function cancelReason(signal: AbortSignal): string {
  return typeof signal.reason === 'string' && signal.reason ? signal.reason : 'the task was cancelled';
}

function startFailure(command: StepCommand, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `${command.label} not found on this host`;
  if (error.code === 'EACCES') return `${command.label} is not executable on this host (permission denied)`;
  return `${command.label} could not be started: ${error.message}`;
}

async function resolveSecrets(ctx: StepRun): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const { name, secret, key, optional } of ctx.step.secretEnv) {
    let value: string;
    try {
      value = await ctx.io.secretValue(secret, key);
    } catch (error) {
      // Tekton: an optional secretKeyRef whose secret or key is missing leaves the variable unset
      if (optional) continue;
      const message = error instanceof Error ? error.message : String(error);
      throw new StepSetupError(`secret "${secret}" (key "${key}") for ${name} could not be read: ${message}`);
    }
    ctx.log.masker.add(value);
    values[name] = value;
  }
  return values;
}

interface Ending {
  status: StepStatus;
  reason: string;
}

function endingOf(ctx: StepRun, command: StepCommand, end: GroupEnd, stopped: Ending | undefined): Ending {
  const name = ctx.step.name;
  if (end.setupError !== undefined)
    return { status: 'failed', reason: `step "${name}" could not be prepared: ${end.setupError}` };
  if (end.spawnError) return { status: 'failed', reason: startFailure(command, end.spawnError) };
  if (stopped) return stopped;
  if (end.exitCode === 0) return { status: 'succeeded', reason: '' };
  if (end.exitCode !== null)
    return { status: 'failed', reason: `step "${name}" exited with code ${end.exitCode}` };
  return { status: 'failed', reason: `step "${name}" was killed by signal ${end.signal ?? 'unknown'}` };
}

export function taskTimeoutReason(run: ResolvedTaskRun): string {
  return `task "${run.name}" exceeded its timeout of ${formatDuration(run.timeoutMs ?? 0)}`;
}

/** The timer that ends this step first: its own timeout or what is left of the task's. */
function timeoutOf(ctx: StepRun): { ms: number; reason: string } | undefined {
  const { step, run, taskDeadline } = ctx;
  const own =
    step.timeoutMs !== undefined && step.timeoutMs > 0
      ? {
          ms: step.timeoutMs,
          reason: `step "${step.name}" exceeded its timeout of ${formatDuration(step.timeoutMs)}`,
        }
      : undefined;
  if (taskDeadline === undefined) return own;
  const left = Math.max(0, taskDeadline - Date.now());
  if (own && own.ms <= left) return own;
  return { ms: left, reason: taskTimeoutReason(run) };
}

/** Runs one step as a process group and reports how it ended. Never rejects. */
export async function runStep(ctx: StepRun): Promise<StepOutcome> {
  const { log, io } = ctx;
  let step = ctx.step;
  log.system(
    step.name,
    `Running step "${step.name}" (image ${step.image || 'none'}, ${
      ctx.sandbox
        ? ctx.sandbox.pullsImages
          ? 'in a sandbox'
          : "in a sandbox on the host's system"
        : 'run locally on the host'
    })`,
  );
  let startedAt = new Date();
  const finishWith = (ending: Ending, exitCode: number | null, endedAt?: number): StepOutcome => {
    if (ending.status !== 'succeeded') log.system(step.name, ending.reason);
    io.onStepState(step.name, ending.status);
    return {
      name: step.name,
      status: ending.status,
      exitCode,
      startedAt,
      finishedAt: new Date(endedAt ?? Date.now()),
      reason: ending.reason,
    };
  };

  let command: StepCommand;
  let env: Record<string, string>;
  let cwd: string;
  let sandboxed: { file: string; args: string[]; fds: string[] } | undefined;
  try {
    // `$(steps.<s>.results.r)`, `$(step.results.r.path)`, exit code and credentials paths
    step = await fillStepValues(step, ctx.sandbox?.stepDirs ?? hostStepDirs(ctx.scratchDir)).catch(
      (error: unknown) => {
        if (error instanceof StepSetupError)
          throw new StepSetupError(`step "${step.name}": ${error.message}`);
        throw error;
      },
    );
    const secrets = await resolveSecrets(ctx);
    if (ctx.sandbox) {
      const { root, image } = await ctx.sandbox.image(step, ctx.signal).catch((error: Error) => {
        throw new StepSetupError(`step "${step.name}": ${error.message}`);
      });
      command = planStepCommand(step, ctx.index, ctx.scratchDir, ctx.sandbox.scriptsDir, image?.config);
      env = ctx.sandbox.env(image, { ...step.env, ...secrets });
      const inside = await ctx.sandbox.workingDir(step, image);
      sandboxed = ctx.sandbox.command(step, [command.file, ...command.args], inside, image, root);
      cwd = '/';
    } else {
      command = planStepCommand(step, ctx.index, ctx.scratchDir);
      env = stepEnv({ home: ctx.scratchDir, path: ctx.path }, step.env, secrets);
      cwd = await stepCwd(step.workingDir, ctx.run.workspaces, ctx.scratchDir);
    }
  } catch (error) {
    const reason =
      error instanceof StepSetupError
        ? error.message
        : `step "${step.name}" could not be prepared: ${String(error)}`;
    return finishWith({ status: 'failed', reason }, null);
  }
  if (ctx.signal.aborted) return finishWith({ status: 'cancelled', reason: cancelReason(ctx.signal) }, null);

  let group: GroupProcess;
  try {
    group = await ctx.spawner.spawnGroup(sandboxed?.file ?? command.file, sandboxed?.args ?? command.args, {
      cwd,
      env,
      killGraceMs: ctx.killGraceMs,
      script: command.script,
      home: ctx.scratchDir,
      ...(sandboxed
        ? {
            fds: sandboxed.fds,
            ...(ctx.index === 0 ? { mkdirs: ctx.sandbox!.scratchDirs } : {}),
            ...(ctx.sandbox!.owner ? { owner: ctx.sandbox!.owner } : {}),
          }
        : {}),
      signal: ctx.signal,
      tenant: ctx.run.tenant,
      ...(ctx.key ? { key: ctx.key } : {}),
      ...(ctx.removeScratchAfter ? { removeAfter: ctx.scratchDir } : {}),
    });
  } catch (error) {
    return finishWith(
      { status: 'failed', reason: startFailure(command, error as NodeJS.ErrnoException) },
      null,
    );
  }
  const splitters = (['stdout', 'stderr'] as const).map((stream) => {
    const splitter = new LineSplitter((text) => log.line(step.name, stream, text), undefined, log.masker);
    group[stream].on('data', (chunk: Buffer) => splitter.push(chunk));
    return splitter;
  });

  let stopped: Ending | undefined;
  const stop = (ending: Ending) => {
    stopped ??= ending;
    group.terminate();
  };
  const onAbort = () => stop({ status: 'cancelled', reason: cancelReason(ctx.signal) });
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  // the spawn may wait for a free slot: the step (and its timeouts, and the task's) start when it runs
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  void group.started.then((started) => {
    running = started && !stopped;
    if (!running) return;
    // the spawner's own clock: the server may read the news of the start some milliseconds later
    startedAt = new Date(group.startedAt ?? Date.now());
    ctx.onStarted?.();
    io.onStepState(step.name, 'running');
    const timeout = timeoutOf(ctx);
    if (timeout) timer = setTimeout(() => stop({ status: 'timed_out', reason: timeout.reason }), timeout.ms);
  });

  const end = await group.done;
  await group.started;
  if (end.scratchRemoved) ctx.onScratchRemoved?.();
  ctx.signal.removeEventListener('abort', onAbort);
  if (timer) clearTimeout(timer);
  splitters.forEach((splitter) => splitter.flush());
  if (end.pipesAbandoned) {
    log.system(
      step.name,
      "A process that left the step's process group kept its output open; stopped reading it",
    );
  }
  if (!running && !end.setupError && !end.spawnError)
    return finishWith(stopped ?? { status: 'cancelled', reason: cancelReason(ctx.signal) }, null);
  return finishWith(endingOf(ctx, command, end, stopped), end.exitCode, end.endedAt);
}
