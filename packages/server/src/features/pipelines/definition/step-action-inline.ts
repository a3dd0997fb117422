import type { DefinitionIssue } from './definition-issue.js';
import type { EnvVar, ParamSpec, ParamValue, Step, TaskSpec } from './model.js';
import { paramValueType } from './model.js';
import { replaceReferences, wholeReference, type Reference } from './references.js';
import type { StepAction, StepActionCatalogue } from './model.js';

/*
 * A step with `ref: {name}` becomes the StepAction's container (image, command, args, script,
 * env, workingDir, volumeMounts, results, securityContext) with the StepAction's params replaced
 * by the step's `params` (or their defaults), the way Tekton's reconciler does before it makes
 * the pod. A step param's value may itself use the Task's `$(params.*)` or an earlier step's
 * `$(steps.<s>.results.<r>)`: that text lands in the step and is resolved later, with the rest of
 * the Task (task params when the task run is resolved, step results when the step starts).
 */

/** Fields a step that references a StepAction cannot set (Tekton: "image cannot be used with Ref"). */
export const STEP_ACTION_OWNED = [
  'image',
  'command',
  'args',
  'script',
  'env',
  'volumeMounts',
  'results',
] as const;

/** The fields of a step that references a StepAction which the StepAction owns. */
export function stepActionConflicts(step: Step): string[] {
  return STEP_ACTION_OWNED.filter((field) => step[field] !== undefined);
}

/** A param's value as text: a literal, or a whole `$(…[*])` reference to an array or object elsewhere. */
type Value = ParamValue;

/** `$(params.x[*])` → `$(params.x` (the reference without its `[*]` and closing parenthesis). */
function stem(value: string): string | undefined {
  const whole = wholeReference(value);
  if (!whole || !('selector' in whole) || whole.selector?.kind !== 'star') return undefined;
  return value.slice(0, -'[*])'.length);
}

/**
 * An object param's keys Tekton merges key by key: the StepAction's default object under the
 * value the step gives. `known` tells the keys a `$(params.x[*])` of the Task will have (its
 * declared properties and default), so that a key it lacks comes from the StepAction's default.
 */
interface ObjectDefaults {
  defaults: ReadonlyMap<string, Record<string, string>>;
  known: (reference: string) => ReadonlySet<string> | undefined;
}

const NO_DEFAULTS: ObjectDefaults = { defaults: new Map(), known: () => undefined };

class Replacer {
  readonly problems: string[] = [];

  constructor(
    private readonly values: Map<string, Value>,
    private readonly objects: ObjectDefaults = NO_DEFAULTS,
  ) {}

  /** The text for one reference to a StepAction param inside a string. */
  private text(reference: Reference & { kind: 'param' }, value: Value): string {
    const selector = reference.selector;
    if (typeof value === 'string') {
      const base = stem(value);
      if (!selector) return value;
      if (base === undefined) {
        this.problems.push(
          `${reference.raw}: param "${reference.name}" was given the string ${JSON.stringify(value)}`,
        );
        return reference.raw;
      }
      if (selector.kind === 'index') return `${base}[${selector.index}])`;
      if (selector.kind === 'key') {
        const fallback = this.objects.defaults.get(reference.name)?.[selector.key];
        const keys = this.objects.known(value);
        if (fallback !== undefined && keys && !keys.has(selector.key)) return fallback;
        return `${base}.${selector.key})`;
      }
      return value;
    }
    if (Array.isArray(value) && selector?.kind === 'index') {
      const item = value[selector.index];
      if (item !== undefined) return item;
      this.problems.push(`${reference.raw}: index ${selector.index} is out of range (${value.length} items)`);
      return reference.raw;
    }
    if (!Array.isArray(value) && selector?.kind === 'key') {
      const item = value[selector.key] ?? this.objects.defaults.get(reference.name)?.[selector.key];
      if (item !== undefined) return item;
      this.problems.push(`${reference.raw}: param "${reference.name}" has no key "${selector.key}"`);
      return reference.raw;
    }
    this.problems.push(
      `${reference.raw}: an ${paramValueType(value)} can only replace a whole element of command or args`,
    );
    return reference.raw;
  }

  string(text: string): string {
    return replaceReferences(text, (reference) => {
      if (reference.kind !== 'param') return reference.raw;
      const value = this.values.get(reference.name);
      return value === undefined ? reference.raw : this.text(reference, value);
    });
  }

  array(items: readonly string[]): string[] {
    return items.flatMap((item) => {
      const whole = wholeReference(item);
      if (whole?.kind === 'param' && whole.selector?.kind === 'star') {
        const value = this.values.get(whole.name);
        if (Array.isArray(value)) return value;
        if (typeof value === 'string') return [value];
      }
      return [this.string(item)];
    });
  }

  env(entries: readonly EnvVar[] | undefined): EnvVar[] | undefined {
    return entries?.map((entry) => ({
      ...entry,
      ...(entry.value !== undefined ? { value: this.string(entry.value) } : {}),
      ...(entry.valueFrom
        ? {
            valueFrom: Object.fromEntries(
              Object.entries(entry.valueFrom).map(([kind, ref]) => [
                kind,
                Object.fromEntries(
                  Object.entries(ref as Record<string, unknown>).map(([k, v]) => [
                    k,
                    typeof v === 'string' ? this.string(v) : v,
                  ]),
                ),
              ]),
            ) as EnvVar['valueFrom'],
          }
        : {}),
    }));
  }
}

/** Defaults that use other params of the StepAction (`default: $(params.base)/sub`), filled in order. */
function paramValues(
  declared: readonly ParamSpec[],
  given: Map<string, Value>,
  label: string,
): { values: Map<string, Value>; problems: string[] } {
  const values = new Map<string, Value>();
  const problems: string[] = [];
  const pending: ParamSpec[] = [];
  for (const param of declared) {
    const value = given.get(param.name) ?? param.default;
    if (value === undefined) problems.push(`${label} needs param "${param.name}": no value and no default`);
    else if (given.has(param.name) || typeof value !== 'string' || !value.includes('$(params.'))
      values.set(param.name, value);
    else pending.push(param);
  }
  // a default may use params given by the step or other defaults, in any order; a cycle stops
  for (let progress = true; pending.length > 0 && progress;) {
    progress = false;
    for (const [i, param] of pending.entries()) {
      const text = param.default as string;
      const uses = [...text.matchAll(/\$\(params\.([^.)[\]]+)\)/g)].map((m) => m[1]!);
      if (!uses.every((name) => values.has(name) || !declared.some((p) => p.name === name))) continue;
      values.set(param.name, new Replacer(values).string(text));
      pending.splice(i, 1);
      progress = true;
      break;
    }
  }
  for (const param of pending)
    problems.push(`${label}: the default of param "${param.name}" uses params in a cycle`);
  for (const param of declared) {
    const value = values.get(param.name);
    if (value === undefined) continue;
    const type = paramValueType(value);
    // a string may stand for an array or object elsewhere: `$(params.list[*])`
    if (type === param.type || (typeof value === 'string' && stem(value) !== undefined)) continue;
    problems.push(`${label}: param "${param.name}" is of type ${param.type}, got ${JSON.stringify(value)}`);
  }
  return { values, problems };
}

function objectDefaults(action: StepAction, taskParams: readonly ParamSpec[]): ObjectDefaults {
  const defaults = new Map<string, Record<string, string>>();
  for (const param of action.spec.params ?? [])
    if (param.default && typeof param.default === 'object' && !Array.isArray(param.default))
      defaults.set(param.name, param.default);
  const known = (value: string) => {
    const whole = wholeReference(value);
    const declared = whole?.kind === 'param' ? taskParams.find((p) => p.name === whole.name) : undefined;
    if (!declared || (!declared.properties && typeof declared.default !== 'object')) return undefined;
    const fromDefault = declared.default && !Array.isArray(declared.default) ? declared.default : {};
    return new Set([...Object.keys(declared.properties ?? {}), ...Object.keys(fromDefault)]);
  };
  return { defaults, known };
}

/** The step a `ref` step becomes: the StepAction's container, its params replaced. */
export function inlineStep(
  step: Step,
  action: StepAction,
  taskParams: readonly ParamSpec[] = [],
): { step: Step; problems: string[] } {
  const label = `step "${step.name ?? ''}" (StepAction "${action.metadata.name}")`;
  const given = new Map((step.params ?? []).map((p) => [p.name, p.value] as const));
  const { values, problems } = paramValues(action.spec.params ?? [], given, label);
  const replace = new Replacer(values, objectDefaults(action, taskParams));
  const spec = action.spec;
  const { ref: _ref, params: _params, ...own } = step;
  const inlined: Step = {
    ...own,
    image: spec.image !== undefined ? replace.string(spec.image) : undefined,
    ...(spec.command?.length ? { command: replace.array(spec.command) } : {}),
    ...(spec.args?.length ? { args: replace.array(spec.args) } : {}),
    ...(spec.script !== undefined ? { script: spec.script } : {}),
    ...(spec.env ? { env: replace.env(spec.env) } : {}),
    ...(spec.workingDir !== undefined ? { workingDir: replace.string(spec.workingDir) } : {}),
    ...(spec.volumeMounts?.length
      ? {
          volumeMounts: spec.volumeMounts.map((m) => ({
            ...m,
            name: replace.string(m.name),
            mountPath: replace.string(m.mountPath),
            ...(m.subPath !== undefined ? { subPath: replace.string(m.subPath) } : {}),
          })),
        }
      : {}),
    ...(spec.results?.length ? { results: spec.results } : {}),
    ...(spec.securityContext ? { securityContext: spec.securityContext } : {}),
  };
  return { step: inlined, problems: [...problems, ...replace.problems.map((p) => `${label}: ${p}`)] };
}

/**
 * Inlines every `ref` step of a Task spec that names a StepAction of the catalogue. A step that
 * names none, names a remote one (`ref.resolver`) or also sets what the StepAction owns stays as
 * it is: validateTask names the problem. Returns the same spec when no step has a ref.
 */
export function inlineStepActions(
  spec: TaskSpec,
  actions: StepActionCatalogue | undefined,
  base = 'spec',
): { spec: TaskSpec; issues: DefinitionIssue[] } {
  if (!spec.steps.some((s) => s.ref)) return { spec, issues: [] };
  const issues: DefinitionIssue[] = [];
  const steps = spec.steps.map((step, i) => {
    const name = step.ref?.name;
    const action = name && !step.ref?.resolver ? actions?.get(name) : undefined;
    if (!action || stepActionConflicts(step).length > 0) return step;
    const { step: inlined, problems } = inlineStep(step, action, spec.params);
    for (const message of problems)
      issues.push({ path: `${base}.steps[${i}].params`, rule: 'step-action-param', message });
    return inlined;
  });
  return { spec: { ...spec, steps }, issues };
}
