import { SubstitutionError } from './definition-issue.js';
import type { ParamValue, WhenExpression } from './model.js';
import { paramValueType } from './model.js';
import type { Reference, Selector } from './references.js';
import { replaceReferences, wholeReference } from './references.js';

/** Values for Tekton's `$(context.*)` variables. */
export interface ContextVariables {
  pipelineRun?: { name?: string; uid?: string; namespace?: string };
  pipeline?: { name?: string };
  /** serviceAccountName: the pod's account (spec.serviceAccountName to a fieldRef), when not "default" */
  taskRun?: { name?: string; uid?: string; namespace?: string; serviceAccountName?: string };
  task?: { name?: string; retryCount?: number };
  pipelineTask?: { retries?: number };
}

/** What `$(...)` references resolve to. A reference whose value is absent is an error. */
export interface SubstitutionContext {
  /** `$(params.x)`, `$(params.x[*])`, `$(params.x[0])`, `$(params.obj.key)`. */
  params?: Record<string, ParamValue>;
  /** `$(tasks.t.results.r)`: results of finished tasks; a matrixed task's results are arrays. */
  taskResults?: Record<string, Record<string, ParamValue>>;
  /** `$(tasks.t.status)` in finally tasks: `Succeeded`, `Failed` or `None`. */
  taskStatuses?: Record<string, string>;
  /** `$(tasks.t.reason)` in finally tasks. */
  taskReasons?: Record<string, string>;
  /** `$(tasks.status)` in finally tasks: `Succeeded`, `Failed` or `Completed`. */
  tasksStatus?: string;
  /** `$(tasks.t.matrix.length)`: how many runs a matrixed task fanned out into. */
  matrixLengths?: Record<string, number>;
  /** `$(results.r.path)` → `<resultsDir>/r`. */
  resultsDir?: string;
  /** When given, `$(results.r.path)` must name one of these. */
  declaredResults?: readonly string[];
  /** `$(workspaces.w.path)`: the path a step sees; null for an optional workspace left unbound. */
  workspaces?: Record<string, string | null>;
  context?: ContextVariables;
  /**
   * References left as written, for a later pass to resolve (Tekton substitutes in passes: a
   * pipeline task's `$(workspaces.w.path)` is the Task's workspace, a `$(context.task.retry-count)`
   * the attempt's).
   */
  leave?: (reference: Reference) => boolean;
}

const fail = (reference: Reference, message: string): never => {
  throw new SubstitutionError(reference.raw, `${reference.raw}: ${message}`);
};

function contextValue(reference: Reference & { kind: 'context' }, context: ContextVariables = {}) {
  const values: Record<string, string | number | undefined> = {
    'pipelineRun.name': context.pipelineRun?.name,
    'pipelineRun.uid': context.pipelineRun?.uid,
    'pipelineRun.namespace': context.pipelineRun?.namespace,
    'pipeline.name': context.pipeline?.name,
    'taskRun.name': context.taskRun?.name,
    'taskRun.uid': context.taskRun?.uid,
    'taskRun.namespace': context.taskRun?.namespace,
    'task.name': context.task?.name,
    'task.retry-count': context.task?.retryCount,
    'pipelineTask.retries': context.pipelineTask?.retries,
  };
  const value = values[reference.variable];
  if (value === undefined) return fail(reference, `unknown context variable "${reference.variable}"`);
  return String(value);
}

function select(reference: Reference, what: string, value: ParamValue, selector?: Selector): ParamValue {
  const type = paramValueType(value);
  if (!selector) {
    if (type === 'string') return value;
    const hint = type === 'array' ? '[*]' : '[*] or .<key>';
    return fail(reference, `${what} is an ${type}: reference it with ${hint}`);
  }
  if (selector.kind === 'star') {
    if (type !== 'string') return value;
    return fail(reference, `${what} is a string: [*] applies to arrays and objects`);
  }
  if (selector.kind === 'index') {
    if (!Array.isArray(value)) return fail(reference, `${what} is not an array`);
    const item = value[selector.index];
    if (item === undefined)
      return fail(reference, `index ${selector.index} is out of range (${value.length} items)`);
    return item;
  }
  if (type !== 'object') return fail(reference, `${what} is not an object`);
  const item = (value as Record<string, string>)[selector.key];
  if (item === undefined) return fail(reference, `${what} has no key "${selector.key}"`);
  return item;
}

/** The value of one reference: a string, or an array / object for `[*]`. Throws SubstitutionError. */
export function resolveReference(reference: Reference, ctx: SubstitutionContext): ParamValue {
  switch (reference.kind) {
    case 'param': {
      const value = ctx.params?.[reference.name];
      if (value === undefined) return fail(reference, `no param "${reference.name}"`);
      return select(reference, `param "${reference.name}"`, value, reference.selector);
    }
    case 'taskResult': {
      const results = ctx.taskResults?.[reference.task];
      if (!results) return fail(reference, `no results from task "${reference.task}"`);
      const value = results[reference.result];
      if (value === undefined)
        return fail(reference, `task "${reference.task}" did not produce result "${reference.result}"`);
      return select(reference, `result "${reference.task}.${reference.result}"`, value, reference.selector);
    }
    case 'taskStatus':
    case 'taskReason': {
      const map = reference.kind === 'taskStatus' ? ctx.taskStatuses : ctx.taskReasons;
      const value = map?.[reference.task];
      if (value === undefined)
        return fail(
          reference,
          `no status of task "${reference.task}" (only finally tasks see task statuses)`,
        );
      return value;
    }
    case 'tasksStatus':
      if (ctx.tasksStatus === undefined) return fail(reference, 'only finally tasks see $(tasks.status)');
      return ctx.tasksStatus;
    case 'matrixLength': {
      const length = reference.result
        ? ctx.taskResults?.[reference.task]?.[reference.result]?.length
        : ctx.matrixLengths?.[reference.task];
      if (length === undefined) return fail(reference, `task "${reference.task}" is not a finished matrix`);
      return String(length);
    }
    case 'resultPath':
      if (ctx.resultsDir === undefined) return fail(reference, 'results paths exist only inside a task');
      if (ctx.declaredResults && !ctx.declaredResults.includes(reference.result))
        return fail(reference, `the task declares no result "${reference.result}"`);
      return `${ctx.resultsDir}/${reference.result}`;
    case 'workspace': {
      const path = ctx.workspaces?.[reference.workspace];
      if (path === undefined) return fail(reference, `no workspace "${reference.workspace}"`);
      if (reference.property === 'path') return path ?? '';
      if (reference.property === 'bound') return path === null ? 'false' : 'true';
      if (reference.property === 'volume') return reference.workspace;
      return '';
    }
    case 'context':
      return contextValue(reference, ctx.context);
    case 'stepResultPath':
    case 'stepResult':
    case 'stepExitCodePath':
    case 'credentialsPath':
      // kept as written: the executor fills them when the step runs (executor/step-values.ts)
      return reference.raw;
    case 'unsupported':
      return fail(reference, reference.message.replace(`${reference.raw} `, ''));
  }
}

function substituteString(text: string, ctx: SubstitutionContext): string {
  return replaceReferences(text, (reference) => {
    if (ctx.leave?.(reference)) return reference.raw;
    const value = resolveReference(reference, ctx);
    if (typeof value === 'string') return value;
    return fail(reference, 'an array or object can only replace a whole array element or param value');
  });
}

/**
 * The whole value a string that is exactly one param or result reference stands for: `[*]`, or
 * (as Tekton does) no selector on an array or object; undefined for anything else.
 */
function wholeValue(text: string, ctx: SubstitutionContext): ParamValue | undefined {
  const whole = wholeReference(text);
  if (!whole || (whole.kind !== 'param' && whole.kind !== 'taskResult') || ctx.leave?.(whole))
    return undefined;
  if (whole.selector?.kind === 'star') return resolveReference(whole, ctx);
  if (whole.selector) return undefined;
  const value =
    whole.kind === 'param' ? ctx.params?.[whole.name] : ctx.taskResults?.[whole.task]?.[whole.result];
  return value !== undefined && typeof value !== 'string' ? value : undefined;
}

function substituteArray(items: readonly string[], ctx: SubstitutionContext): string[] {
  return items.flatMap((item) => {
    const value = wholeValue(item, ctx);
    if (value === undefined) return [substituteString(item, ctx)];
    if (Array.isArray(value)) return value;
    return fail(wholeReference(item)!, 'an object cannot be expanded into an array');
  });
}

/**
 * Replaces Tekton references. In an array (e.g. `args`), an element that is exactly
 * `$(params.x[*])` becomes the array's elements. Other `$(...)` text, like `$(date)`, is kept.
 * Throws SubstitutionError naming the first reference that cannot be resolved.
 */
export function substitute(value: string, ctx: SubstitutionContext): string;
export function substitute(value: readonly string[], ctx: SubstitutionContext): string[];
export function substitute(value: string | readonly string[], ctx: SubstitutionContext): string | string[] {
  return typeof value === 'string' ? substituteString(value, ctx) : substituteArray(value, ctx);
}

/** Substitutes a param value; a string that is exactly `$(params.x[*])` takes the whole array or object. */
export function substituteParamValue(value: ParamValue, ctx: SubstitutionContext): ParamValue {
  if (Array.isArray(value)) return substituteArray(value, ctx);
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteString(v, ctx)]));
  return wholeValue(value, ctx) ?? substituteString(value, ctx);
}

export interface WhenOutcome {
  run: boolean;
  reason: string;
}

const quoteList = (values: string[]) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;

/** Evaluates a task's `when` expressions (all must hold). Throws SubstitutionError on a bad reference. */
export function evaluateWhen(
  when: readonly WhenExpression[] | undefined,
  ctx: SubstitutionContext,
): WhenOutcome {
  if (!when || when.length === 0) return { run: true, reason: 'no when expressions' };
  for (const expression of when) {
    if (expression.cel !== undefined)
      throw new SubstitutionError(expression.cel, 'CEL when expressions are not supported');
    const raw = expression.input ?? '';
    const input = substituteString(raw, ctx);
    const values = substituteArray(expression.values ?? [], ctx);
    const operator = expression.operator;
    if (operator !== 'in' && operator !== 'notin')
      throw new SubstitutionError(raw, `when operator "${operator}" is not supported: use in or notin`);
    const found = values.includes(input);
    if (found === (operator === 'in')) continue;
    const subject = raw === input ? JSON.stringify(input) : `${raw} = ${JSON.stringify(input)}`;
    const verdict = operator === 'in' ? 'is not in' : 'is in';
    return { run: false, reason: `when expression false: ${subject} ${verdict} ${quoteList(values)}` };
  }
  return { run: true, reason: 'when expressions true' };
}
