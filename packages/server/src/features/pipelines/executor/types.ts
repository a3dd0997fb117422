import type { ResolvedTaskRun as FullTaskRun } from '../definition/resolve-task-run.js';

/**
 * The executor's input is the definition layer's resolved task run (every `$(...)` substituted).
 * The executor does not need the param values themselves, so they are optional here.
 */
export type { ResolvedStep } from '../definition/resolve-task-run.js';
export type ResolvedTaskRun = Omit<FullTaskRun, 'params'> & Partial<Pick<FullTaskRun, 'params'>>;
