import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  findReferences,
  replaceReferences,
  wholeReference,
  type Reference,
} from '../definition/references.js';
import type { ParamValue } from '../definition/model.js';
import { StepSetupError } from './step-command.js';
import { MAX_RESULT_BYTES } from './task-results.js';
import type { ResolvedStep, ResolvedTaskRun } from './types.js';

/*
 * What Tekton's entrypoint and reconciler fill into a step when it runs, and the task
 * definition leaves as written (definition/substitute.ts keeps them):
 * - `$(step.results.r.path)`: `<steps>/step-<this step>/results/r`, the step's own result file;
 * - `$(steps.step-<s>.exitCode.path)`: `<steps>/step-<s>/exitCode`, written when step s ended;
 * - `$(steps.<s>.results.r)` (`[*]`, `[i]`, `.key`): the value step s wrote, in env, command and
 *   args (Tekton's entrypoint does the same just before the step's command runs);
 * - `$(credentials.path)`: `/tekton/creds`, an empty directory (Slipway writes no credentials
 *   there: Tekton's creds-init is not run).
 * `<steps>` is `/tekton/steps` in a sandbox and the attempt's `<scratch>/steps` on the host.
 */

export interface StepDirs {
  /** The attempt's `steps` directory on the host. */
  host: string;
  /** The same directory as steps see it. */
  inside: string;
  /** `$(credentials.path)` as steps see it. */
  credentials: string;
}

/** The directory name of a step under `/tekton/steps` (its container's name in Tekton). */
export const stepDir = (name: string) => `step-${name}`;

const STEP_REFERENCE = /\$\((?:steps?|credentials)[.[]/;

/** Does the step use any of what `fillStepValues` fills? */
export function usesStepValues(step: ResolvedStep): boolean {
  const texts = [
    step.script ?? '',
    ...(step.command ?? []),
    ...(step.args ?? []),
    ...Object.values(step.env),
  ];
  return texts.some((text) => STEP_REFERENCE.test(text)) || STEP_REFERENCE.test(step.workingDir ?? '');
}

/** Reads a result file as Tekton does: a JSON array or object, a JSON string, else the text itself. */
export function parseResultText(text: string): ParamValue {
  const trimmed = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (/^[[{]/.test(trimmed))
    try {
      const value: unknown = JSON.parse(trimmed);
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
      if (
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.values(value).every((v) => typeof v === 'string')
      )
        return value as Record<string, string>;
    } catch {
      // not JSON: the text itself
    }
  if (trimmed.startsWith('"'))
    try {
      const value: unknown = JSON.parse(trimmed);
      if (typeof value === 'string') return value;
    } catch {
      // not a JSON string: the text itself
    }
  return trimmed;
}

/** The text of step `step`'s result `result`; throws naming it when it was not written or is too large. */
export async function readStepResult(
  dirs: Pick<StepDirs, 'host'>,
  step: string,
  result: string,
): Promise<string> {
  const file = join(dirs.host, stepDir(step), 'results', result);
  const size = await stat(file).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) throw new StepSetupError(`step "${step}" did not write its result "${result}"`);
  if (size > MAX_RESULT_BYTES + 1)
    throw new StepSetupError(
      `result "${result}" of step "${step}" is ${size} bytes, more than the limit of ${MAX_RESULT_BYTES} bytes`,
    );
  return readFile(file, 'utf8');
}

type StepResultRef = Extract<Reference, { kind: 'stepResult' }>;

function select(reference: StepResultRef, value: ParamValue): ParamValue {
  const what = `result "${reference.result}" of step "${reference.step}"`;
  const selector = reference.selector;
  if (!selector) {
    if (typeof value === 'string') return value;
    throw new StepSetupError(
      `${reference.raw}: ${what} is an ${Array.isArray(value) ? 'array' : 'object'}: use [*]`,
    );
  }
  if (selector.kind === 'star') return value;
  if (selector.kind === 'index') {
    const item = Array.isArray(value) ? value[selector.index] : undefined;
    if (item === undefined)
      throw new StepSetupError(`${reference.raw}: ${what} has no item ${selector.index}`);
    return item;
  }
  const item = typeof value === 'object' && !Array.isArray(value) ? value[selector.key] : undefined;
  if (item === undefined) throw new StepSetupError(`${reference.raw}: ${what} has no key "${selector.key}"`);
  return item;
}

class Filler {
  private readonly read = new Map<string, Promise<ParamValue>>();
  /** Values read for the step's `$(steps.*.results.*)`, filled in a second, synchronous pass. */
  readonly values = new Map<string, ParamValue>();

  constructor(
    private readonly step: ResolvedStep,
    private readonly dirs: StepDirs,
  ) {}

  async load(texts: readonly string[]): Promise<void> {
    for (const text of texts)
      for (const reference of findReferences(text)) {
        if (reference.kind !== 'stepResult') continue;
        const key = `${reference.step}\0${reference.result}`;
        if (!this.read.has(key))
          this.read.set(
            key,
            readStepResult(this.dirs, reference.step, reference.result).then(parseResultText),
          );
        this.values.set(reference.raw, select(reference, await this.read.get(key)!));
      }
  }

  /** One string: paths always, step result values when `values` (env, command, args). */
  string(text: string, values: boolean): string {
    return replaceReferences(text, (reference) => {
      switch (reference.kind) {
        case 'stepResultPath':
          return `${this.dirs.inside}/${stepDir(this.step.name)}/results/${reference.result}`;
        case 'stepExitCodePath':
          return `${this.dirs.inside}/${reference.step}/exitCode`;
        case 'credentialsPath':
          return this.dirs.credentials;
        case 'stepResult': {
          if (!values) return reference.raw;
          const value = this.values.get(reference.raw)!;
          if (typeof value === 'string') return value;
          throw new StepSetupError(
            `${reference.raw}: an array or object can only replace a whole element of command or args`,
          );
        }
        default:
          return reference.raw;
      }
    });
  }

  array(items: readonly string[]): string[] {
    return items.flatMap((item) => {
      const whole = wholeReference(item);
      if (whole?.kind === 'stepResult' && whole.selector?.kind === 'star') {
        const value = this.values.get(item)!;
        if (Array.isArray(value)) return value;
        throw new StepSetupError(`${item}: result "${whole.result}" of step "${whole.step}" is not an array`);
      }
      return [this.string(item, true)];
    });
  }
}

/** The step with Tekton's step-level values filled in (see above); throws StepSetupError naming what is missing. */
export async function fillStepValues(step: ResolvedStep, dirs: StepDirs): Promise<ResolvedStep> {
  if (!usesStepValues(step)) return step;
  const filler = new Filler(step, dirs);
  await filler.load([...(step.command ?? []), ...(step.args ?? []), ...Object.values(step.env)]);
  return {
    ...step,
    ...(step.script !== undefined ? { script: filler.string(step.script, false) } : {}),
    ...(step.command ? { command: filler.array(step.command) } : {}),
    ...(step.args ? { args: filler.array(step.args) } : {}),
    env: Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, filler.string(v, true)])),
    ...(step.workingDir !== undefined ? { workingDir: filler.string(step.workingDir, false) } : {}),
  };
}

/** The directories a step writes its results into: made before the steps run. */
export function stepResultDirs(run: Pick<ResolvedTaskRun, 'steps'>, stepsHost: string): string[] {
  return run.steps.flatMap((step) => [
    join(stepsHost, stepDir(step.name)),
    join(stepsHost, stepDir(step.name), 'results'),
  ]);
}

/** After a step: its exit code where later steps read it (`<steps>/step-<name>/exitCode`, and `<steps>/<index>/exitCode`). */
export async function recordExitCode(
  stepsHost: string,
  step: Pick<ResolvedStep, 'name'>,
  index: number,
  exitCode: number | null,
): Promise<void> {
  const code = String(exitCode ?? 1);
  for (const name of [stepDir(step.name), String(index)]) {
    const dir = join(stepsHost, name);
    await mkdir(dir, { recursive: true, mode: 0o755 });
    await writeFile(join(dir, 'exitCode'), code, { mode: 0o644 });
  }
}

/** Task results taken from step results (`results[].value: $(steps.<s>.results.<r>)`), as stored task results. */
export async function taskResultsFromSteps(
  run: Pick<ResolvedTaskRun, 'resultsFromSteps'>,
  stepsHost: string,
): Promise<{ results: Record<string, string>; error?: string }> {
  const results: Record<string, string> = {};
  for (const [name, from] of Object.entries(run.resultsFromSteps ?? {})) {
    let text: string;
    try {
      text = await readStepResult({ host: stepsHost }, from.step, from.result);
    } catch (error) {
      // as a task result file left unwritten: the result is absent (a task that reads it fails there)
      if (/did not write/.test((error as Error).message)) continue;
      return { results, error: (error as Error).message };
    }
    const value = parseResultText(text);
    results[name] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return { results };
}
