import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ResolvedStep } from './types.js';

/** What to spawn for a step, and how to name it when it cannot start. */
export interface StepCommand {
  file: string;
  args: string[];
  /** `command "kaniko"` or `script interpreter "/usr/bin/python3"`. */
  label: string;
  /** The script file to write before `file` runs (a `script` step). */
  script?: ScriptFile;
}

export interface ScriptFile {
  path: string;
  text: string;
  mode: number;
}

/** Writes a step's script file (and its directory). */
export async function writeScript(script: ScriptFile): Promise<void> {
  await mkdir(dirname(script.path), { recursive: true });
  await writeFile(script.path, script.text, { mode: script.mode });
  await chmod(script.path, script.mode); // the mode given to writeFile passes through the umask
}

/** A step that cannot be turned into a process; its message is the step's failure reason. */
export class StepSetupError extends Error {}

const SHELL = '/bin/sh';
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 60) || 'step';
}

/** A script without a shebang up to this size is given to `sh -c` rather than written to a file. */
export const INLINE_SCRIPT_MAX = 32 * 1024;

/**
 * A `script` with a shebang (after leading whitespace, as Tekton trims) is written to a file in
 * the scratch dir, made executable and run directly. Without one it runs with `sh -e`, which is
 * Tekton's default preamble (`#!/bin/sh` + `set -e`): up to INLINE_SCRIPT_MAX as `sh -e -c`
 * (`$0` is the step's name; no file to write and remove, which is most of a short step's cost),
 * beyond as a file. `args` follow the script as `$1…`. A `command` runs with its `args` without a
 * shell.
 */
export async function stepCommand(
  step: ResolvedStep,
  index: number,
  scratchDir: string,
): Promise<StepCommand> {
  const command = planStepCommand(step, index, scratchDir);
  if (command.script) await writeScript(command.script);
  return command;
}

/** The same as `stepCommand` without writing the script file: whoever spawns the step writes it. */
export function planStepCommand(
  step: ResolvedStep,
  index: number,
  scratchDir: string,
  /** A sandboxed step: its scripts are written to `host` and seen at `inside`. */
  scriptsAt?: { host: string; inside: string },
  /** The image's entrypoint and cmd (a pulled image), for a step with neither command nor script. */
  image?: { entrypoint: string[]; cmd: string[] },
): StepCommand {
  const extra = step.args ?? [];
  if (step.script !== undefined) {
    const name = `${index}-${fileSafe(step.name)}`;
    const hostFile = scriptsAt ? join(scriptsAt.host, name) : join(scratchDir, '.slipway', 'scripts', name);
    const file = scriptsAt ? `${scriptsAt.inside}/${name}` : hostFile;
    const trimmed = step.script.trimStart();
    if (trimmed.startsWith('#!')) {
      const interpreter = trimmed.slice(2).split('\n', 1)[0]!.trim().split(/\s+/, 1)[0] ?? '';
      return {
        file,
        args: extra,
        label: `script interpreter "${interpreter}"`,
        script: { path: hostFile, text: trimmed, mode: 0o700 },
      };
    }
    if (Buffer.byteLength(step.script) <= INLINE_SCRIPT_MAX)
      return { file: SHELL, args: ['-e', '-c', step.script, step.name, ...extra], label: `command "sh"` };
    return {
      file: SHELL,
      args: ['-e', file, ...extra],
      label: `command "sh"`,
      script: { path: hostFile, text: step.script, mode: 0o600 },
    };
  }
  // Kubernetes' rules: command replaces the entrypoint; args alone follow the entrypoint; neither
  // runs entrypoint + cmd
  const argv = step.command
    ? step.command
    : image
      ? [...image.entrypoint, ...(step.args ? [] : image.cmd)]
      : undefined;
  if (image && !step.command && argv!.length === 0)
    throw new StepSetupError(`step "${step.name}" has no command, and its image has no entrypoint or cmd`);
  const [file, ...rest] = argv ?? [];
  if (!file) {
    throw new StepSetupError(
      `step "${step.name}" has neither command nor script, so it runs its image's entrypoint, which only a pulled image gives (SLIPWAY_STEP_IMAGES=pull); here steps run on the host's system: give the step a command or a script`,
    );
  }
  return { file, args: [...rest, ...extra], label: `command "${file}"` };
}

export interface StepEnvBase {
  home: string;
  path?: string;
}

/** A minimal, predictable environment: nothing of the server's own environment leaks in. */
export function stepEnv(
  base: StepEnvBase,
  env: Record<string, string>,
  secrets: Record<string, string>,
): Record<string, string> {
  return {
    PATH: base.path ?? process.env.PATH ?? DEFAULT_PATH,
    HOME: base.home,
    LANG: 'C.UTF-8',
    ...env,
    ...secrets,
  };
}

/** workingDir relative to the first workspace (or the scratch dir); created when missing. */
export async function stepCwd(
  workingDir: string | undefined,
  workspaces: Record<string, string>,
  scratchDir: string,
): Promise<string> {
  const base = Object.values(workspaces)[0] ?? scratchDir;
  const cwd = workingDir ? (isAbsolute(workingDir) ? workingDir : resolve(base, workingDir)) : base;
  if (cwd !== scratchDir) await mkdir(cwd, { recursive: true });
  return cwd;
}
