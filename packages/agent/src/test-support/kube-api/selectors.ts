import { HttpError, getPath, type KubeObject } from './types.js';

type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

/** Parses a label selector: a=b, a==b, a!=b, a, !a, a in (x,y), a notin (x,y). */
export function parseLabelSelector(selector: string): Requirement[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) parts.push(current);
  return parts.map((raw) => {
    const part = raw.trim();
    let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (m) {
      return {
        key: m[1]!,
        op: m[2] as 'in' | 'notin',
        values: m[3]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    }
    m = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(part);
    if (m) return { key: m[1]!, op: m[2] === '!=' ? 'neq' : 'eq', value: m[3]! };
    m = /^(!?)([\w./-]+)$/.exec(part);
    if (m) return { key: m[2]!, op: m[1] ? 'notexists' : 'exists' };
    throw new HttpError(400, 'BadRequest', `unable to parse requirement: ${part}`);
  });
}

export function matchesLabels(labels: Record<string, string>, requirements: Requirement[]): boolean {
  return requirements.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(labels, r.key);
    const value = labels[r.key];
    switch (r.op) {
      case 'eq':
        return has && value === r.value;
      case 'neq':
        return !has || value !== r.value;
      case 'in':
        return has && r.values.includes(value!);
      case 'notin':
        return !has || !r.values.includes(value!);
      case 'exists':
        return has;
      case 'notexists':
        return !has;
    }
  });
}

export function matchesFields(obj: KubeObject, selector: string): boolean {
  return selector
    .split(',')
    .filter(Boolean)
    .every((term) => {
      const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(term.trim());
      if (!m) throw new HttpError(400, 'BadRequest', `invalid field selector: ${term}`);
      const actual = getPath(obj, m[1]!);
      const equal = String(actual ?? '') === m[3];
      return m[2] === '!=' ? !equal : equal;
    });
}

/** Whether an object is in a namespace (when given) and matches the selectors (when given). */
export function matches(
  object: KubeObject,
  namespace?: string,
  labelSelector?: string,
  fieldSelector?: string,
): boolean {
  if (namespace && object.metadata.namespace !== namespace) return false;
  if (labelSelector) {
    const labels = (object.metadata.labels as Record<string, string> | undefined) ?? {};
    if (!matchesLabels(labels, parseLabelSelector(labelSelector))) return false;
  }
  if (fieldSelector && !matchesFields(object, fieldSelector)) return false;
  return true;
}
