import { SubstitutionError } from './definition-issue.js';
import type { ParamValue, PipelineTask, TaskSpec, TaskWorkspace, WorkspaceBinding } from './model.js';
import { paramValueType, withObjectDefault } from './model.js';
import { resolveDefaultReferences } from './param-defaults.js';
import { findReferences, walkStrings, type Reference } from './references.js';
import { resolveReference, substituteParamValue, type SubstitutionContext } from './substitute.js';

/*
 * What a pipeline task hands its Task, the way Tekton's reconcilers do it: the params (with
 * propagation into an inline taskSpec) and the workspaces an inline taskSpec uses undeclared.
 */

const fail = (reference: string, message: string): never => {
  throw new SubstitutionError(reference, message);
};

/** A value over an object of the same param: its keys over the other's (Tekton's scoping of objects). */
function overObject(under: ParamValue | undefined, over: ParamValue): ParamValue {
  if (!under || typeof under !== 'object' || Array.isArray(under)) return over;
  if (typeof over !== 'object' || Array.isArray(over)) return over;
  return { ...under, ...over };
}

/**
 * The params a task run sees. A pipeline task's params are substituted at the pipeline level
 * (`$(context.pipelineTask.retries)` included). A Task's declared param takes the pipeline task's
 * value, else (inline taskSpec) the pipeline's value of that name, else its default. An inline
 * taskSpec also sees every pipeline param and every param its pipeline task passes without
 * declaring them (Tekton's propagation; an object passed over a pipeline object keeps the
 * pipeline's other keys).
 */
export function taskParamValues(
  task: PipelineTask,
  spec: TaskSpec,
  ctx: SubstitutionContext,
): Record<string, ParamValue> {
  const pipelineTaskCtx: SubstitutionContext = {
    ...ctx,
    context: { ...ctx.context, pipelineTask: { retries: task.retries ?? 0 } },
  };
  const supplied = new Map(
    (task.params ?? []).map((p) => [p.name, substituteParamValue(p.value, pipelineTaskCtx)]),
  );
  const inline = Boolean(task.taskSpec);
  const values: Record<string, ParamValue> = inline ? { ...ctx.params } : {};
  if (inline) for (const [name, value] of supplied) values[name] = overObject(values[name], value);
  const defaulted = new Set<string>();
  for (const param of spec.params ?? []) {
    const propagated = inline ? ctx.params?.[param.name] : undefined;
    let value =
      supplied.get(param.name) ??
      (propagated !== undefined && paramValueType(propagated) === param.type ? propagated : undefined);
    if (value === undefined && param.default !== undefined) {
      value = param.default;
      defaulted.add(param.name);
    }
    if (value === undefined)
      return fail(
        `$(params.${param.name})`,
        `task "${task.name}" needs param "${param.name}": no value and no default`,
      );
    value = withObjectDefault(param, value);
    if (paramValueType(value) !== param.type)
      return fail(
        `$(params.${param.name})`,
        `param "${param.name}" of task "${task.name}" is of type ${param.type}, got ${JSON.stringify(value)}`,
      );
    values[param.name] = value;
  }
  return resolveDefaultReferences(values, defaulted);
}

/** Kinds Tekton substitutes after the params, so a param's value may hold them. */
const LATER_KINDS = new Set<Reference['kind']>(['context', 'workspace', 'resultPath']);

/**
 * Param values with the task-level variables they hold resolved (`$(context.taskRun.name)` in a
 * default, `$(workspaces.w.path)` passed by a pipeline task): Tekton applies the params first and
 * then the context, workspace and result variables over the result. A reference the task cannot
 * resolve stays as written, as it does in Tekton.
 */
export function resolveParamVariables(
  values: Record<string, ParamValue>,
  ctx: SubstitutionContext,
): Record<string, ParamValue> {
  const resolvable = (reference: Reference) => {
    if (ctx.leave?.(reference)) return false;
    try {
      resolveReference(reference, ctx);
      return true;
    } catch {
      return false;
    }
  };
  const later: SubstitutionContext = {
    ...ctx,
    leave: (reference) => !LATER_KINDS.has(reference.kind) || !resolvable(reference),
  };
  const out: Record<string, ParamValue> = {};
  for (const [name, value] of Object.entries(values)) {
    const strings = walkStrings(value);
    const holds = strings.some(({ text }) => findReferences(text).some((r) => LATER_KINDS.has(r.kind)));
    out[name] = holds ? substituteParamValue(value, later) : value;
  }
  return out;
}

/** Workspace names an inline taskSpec's steps, stepTemplate and sidecars reference. */
function referencedWorkspaces(spec: TaskSpec): string[] {
  const names = new Set<string>();
  for (const { text } of walkStrings([spec.steps, spec.stepTemplate ?? {}, spec.sidecars ?? []]))
    for (const reference of findReferences(text))
      if (reference.kind === 'workspace') names.add(reference.workspace);
  return [...names];
}

/**
 * The workspaces a task run gets and the bindings that give them. An inline taskSpec also gets,
 * undeclared, each workspace its pipeline task binds and each one its steps reference; one its
 * pipeline task does not bind is bound to the pipeline workspace of that name (Tekton's
 * propagated workspaces).
 */
export function taskWorkspaces(
  task: PipelineTask,
  spec: TaskSpec,
): { workspaces: TaskWorkspace[]; bindings: WorkspaceBinding[] } {
  const declared = spec.workspaces ?? [];
  const bindings = [...(task.workspaces ?? [])];
  if (!task.taskSpec) return { workspaces: declared, bindings };
  const names = new Set(declared.map((w) => w.name));
  const workspaces = [...declared];
  for (const name of [...bindings.map((b) => b.name), ...referencedWorkspaces(spec)]) {
    if (names.has(name)) continue;
    names.add(name);
    workspaces.push({ name });
  }
  for (const name of names) if (!bindings.some((b) => b.name === name)) bindings.push({ name });
  return { workspaces, bindings };
}
