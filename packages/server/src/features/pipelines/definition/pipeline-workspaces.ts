import type { PipelineSpec } from './model.js';
import type { SubstitutionContext } from './substitute.js';

/** What of a run's workspace bindings these functions need: the names the run binds. */
type Bindings = readonly { name: string }[];

/** Whether the run gives the pipeline workspace: bound by the run, or declared and not optional. */
function isBound(spec: PipelineSpec, bound: ReadonlySet<string>, name: string): boolean {
  if (bound.has(name)) return true;
  const declared = spec.workspaces?.find((w) => w.name === name);
  return declared !== undefined && !declared.optional;
}

/**
 * The pipeline workspaces tasks get, from the run directory's paths: an optional workspace the
 * run leaves unbound is absent, so a Task's optional workspace bound to it is unbound too
 * (`$(workspaces.w.bound)` false, its path empty), as in Tekton. A required one left unbound is
 * a fresh directory.
 */
export function boundWorkspaces(
  spec: PipelineSpec,
  bindings: Bindings,
  paths: Readonly<Record<string, string>>,
): Record<string, string> {
  const bound = new Set(bindings.map((b) => b.name));
  return Object.fromEntries(Object.entries(paths).filter(([name]) => isBound(spec, bound, name)));
}

/**
 * The pipeline level's workspace variables: `$(workspaces.w.bound)` in `when` and params is
 * whether the run gives w; `$(workspaces.w.path)` (and claim, volume) in a pipeline task's params
 * is the Task's workspace, left for the task run to resolve.
 */
export function pipelineWorkspaceVariables(
  spec: PipelineSpec,
  bindings: Bindings,
): Pick<SubstitutionContext, 'workspaces' | 'leave'> {
  const bound = new Set(bindings.map((b) => b.name));
  const names = new Set([...(spec.workspaces ?? []).map((w) => w.name), ...bound]);
  const workspaces: Record<string, string | null> = {};
  // the value stands for "given": only `.bound` is read at this level
  for (const name of names) workspaces[name] = isBound(spec, bound, name) ? name : null;
  return {
    workspaces,
    leave: (reference) => reference.kind === 'workspace' && reference.property !== 'bound',
  };
}
