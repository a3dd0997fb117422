import type { StepDirs } from '../step-values.js';
import type { ResolvedStep } from '../types.js';
import type { SandboxRoot, SandboxTools, SpawnPlan } from './sandbox-command.js';

/** An image's root filesystem and config, as the image store answers (`SLIPWAY_STEP_IMAGES=pull`). */
export interface StepImage {
  rootfs: string;
  config: { entrypoint: string[]; cmd: string[]; env: string[]; workingDir: string; user: string };
}

/**
 * What a container of the task (a step or a sidecar) asks of the task's sandbox: its root, its
 * environment, its working directory and its command line. TaskSandbox implements it; Sidecars
 * depends on this and not on TaskSandbox, which owns the sidecars.
 */
export interface StepSandbox {
  readonly tools: SandboxTools;
  readonly owner: [number, number] | undefined;
  readonly scratchDirs: string[];
  readonly scriptsDir: { host: string; inside: string };
  /** The attempt's step directories and `$(credentials.path)` (see ../step-values.ts). */
  readonly stepDirs: StepDirs;
  image(step: ResolvedStep, signal: AbortSignal): Promise<{ root: SandboxRoot; image?: StepImage }>;
  env(image: StepImage | undefined, own: Record<string, string>): Record<string, string>;
  workingDir(step: ResolvedStep, image: StepImage | undefined): Promise<string>;
  command(
    step: ResolvedStep,
    argv: string[],
    cwd: string,
    image: StepImage | undefined,
    root: SandboxRoot,
  ): SpawnPlan;
}
