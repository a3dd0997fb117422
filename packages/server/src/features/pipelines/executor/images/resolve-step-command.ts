import type { ImageConfig } from './types.js';

/** A step whose command cannot be worked out; the message is the step's failure reason. */
export class StepCommandError extends Error {
  override name = 'StepCommandError';
}

/**
 * The argv of a step's process by Kubernetes' rules: `command` replaces the image's Entrypoint
 * (and drops its Cmd), `args` replaces the Cmd: command + args; args alone → Entrypoint + args;
 * neither → Entrypoint + Cmd. An empty list counts as not given.
 */
export function resolveStepCommand(
  step: { command?: string[]; args?: string[] },
  config: ImageConfig,
): string[] {
  const command = step.command ?? [];
  const args = step.args ?? [];
  let argv: string[];
  if (command.length > 0) argv = [...command, ...args];
  else if (args.length > 0) argv = [...config.entrypoint, ...args];
  else argv = [...config.entrypoint, ...config.cmd];
  if (argv.length === 0) {
    throw new StepCommandError(
      'the step has no command: it gives no command or args, and its image sets neither Entrypoint nor Cmd',
    );
  }
  return argv;
}
