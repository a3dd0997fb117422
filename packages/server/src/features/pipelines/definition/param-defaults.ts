import { SubstitutionError } from './definition-issue.js';
import type { ParamValue } from './model.js';
import { findReferences, walkStrings } from './references.js';
import { substituteParamValue } from './substitute.js';

/**
 * Param values whose defaults refer to other params (`default: "$(params.registry)/app"`),
 * resolved as Tekton does: a default may use any param's value, defaults that use each other are
 * resolved in their order of use, and a cycle is an error. A value given at run time is taken as
 * it is. `defaulted` names the params that took their default.
 */
export function resolveDefaultReferences(
  values: Readonly<Record<string, ParamValue>>,
  defaulted: ReadonlySet<string>,
): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = { ...values };
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, chain: readonly string[]) => {
    if (!defaulted.has(name) || state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new SubstitutionError(
        `$(params.${name})`,
        `param defaults refer to each other in a cycle: ${[...chain, name].join(' → ')}`,
      );
    state.set(name, 'visiting');
    const value = out[name]!;
    const used = walkStrings(value)
      .flatMap(({ text }) => findReferences(text))
      .flatMap((reference) => (reference.kind === 'param' ? [reference.name] : []));
    for (const other of used) visit(other, [...chain, name]);
    if (used.length > 0)
      out[name] = substituteParamValue(value, {
        params: out,
        leave: (reference) => reference.kind !== 'param' || out[reference.name] === undefined,
      });
    state.set(name, 'done');
  };
  for (const name of defaulted) visit(name, []);
  return out;
}
