/**
 * Field sets as structured-merge-diff keeps them (fieldpath.Set), and their FieldsV1 encoding.
 *
 * A path element is held in its FieldsV1 spelling: `f:name` (a field), `k:{"name":"app"}` (an
 * item of an associative list, keyed), `v:"value"` (an item of a set), `i:0` (an index). A node is
 * a member of the set when the path ending there was inserted; children hold longer paths. In
 * FieldsV1 a member with children is written `".": {}`, a member without children as `{}`.
 */

export interface FieldSetNode {
  member: boolean;
  children: Map<string, FieldSetNode>;
}

export type FieldPath = readonly string[];

export const emptySet = (): FieldSetNode => ({ member: false, children: new Map() });

export function insertPath(set: FieldSetNode, path: FieldPath): void {
  let node = set;
  for (const pe of path) {
    let next = node.children.get(pe);
    if (!next) {
      next = emptySet();
      node.children.set(pe, next);
    }
    node = next;
  }
  node.member = true;
}

export function hasPath(set: FieldSetNode, path: FieldPath): boolean {
  let node: FieldSetNode | undefined = set;
  for (const pe of path) {
    node = node.children.get(pe);
    if (!node) return false;
  }
  return node.member;
}

/** The subtree below one path element (`set.WithPrefix(pe)`), or undefined when there is none. */
export function childSet(set: FieldSetNode | undefined, pe: string): FieldSetNode | undefined {
  return set?.children.get(pe);
}

export function isEmptySet(set: FieldSetNode | undefined): boolean {
  if (!set) return true;
  if (set.member) return false;
  for (const child of set.children.values()) if (!isEmptySet(child)) return false;
  return true;
}

export function cloneSet(set: FieldSetNode): FieldSetNode {
  return { member: set.member, children: new Map([...set.children].map(([k, v]) => [k, cloneSet(v)])) };
}

export function union(a: FieldSetNode, b: FieldSetNode): FieldSetNode {
  const out = cloneSet(a);
  const add = (into: FieldSetNode, from: FieldSetNode) => {
    into.member ||= from.member;
    for (const [pe, child] of from.children) {
      let target = into.children.get(pe);
      if (!target) {
        target = emptySet();
        into.children.set(pe, target);
      }
      add(target, child);
    }
  };
  add(out, b);
  return prune(out);
}

/** Members of `a` that are not members of `b`. */
export function difference(a: FieldSetNode, b: FieldSetNode | undefined): FieldSetNode {
  const out: FieldSetNode = { member: a.member && !b?.member, children: new Map() };
  for (const [pe, child] of a.children) {
    const d = difference(child, b?.children.get(pe));
    if (!isEmptySet(d)) out.children.set(pe, d);
  }
  return out;
}

/** Members of both. */
export function intersection(a: FieldSetNode, b: FieldSetNode | undefined): FieldSetNode {
  const out: FieldSetNode = { member: a.member && Boolean(b?.member), children: new Map() };
  if (!b) return out;
  for (const [pe, child] of a.children) {
    const other = b.children.get(pe);
    if (!other) continue;
    const i = intersection(child, other);
    if (!isEmptySet(i)) out.children.set(pe, i);
  }
  return out;
}

function prune(set: FieldSetNode): FieldSetNode {
  for (const [pe, child] of set.children) {
    prune(child);
    if (isEmptySet(child)) set.children.delete(pe);
  }
  return set;
}

/** Every member path, in the set's order. */
export function members(set: FieldSetNode, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  if (set.member) out.push(prefix);
  for (const pe of sortedElements(set.children.keys()))
    out.push(...members(set.children.get(pe)!, [...prefix, pe]));
  return out;
}

// fieldpath.PathElement ordering: field names, then keys, then values, then indexes.
const kindRank = (pe: string) => ({ f: 0, k: 1, v: 2, i: 3 })[pe[0] as 'f' | 'k' | 'v' | 'i'] ?? 4;
export function sortedElements(pes: Iterable<string>): string[] {
  return [...pes].sort((a, b) => {
    const r = kindRank(a) - kindRank(b);
    if (r !== 0) return r;
    if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

export type FieldsV1 = { [key: string]: FieldsV1 };

export function encodeFieldsV1(set: FieldSetNode): FieldsV1 {
  const out: FieldsV1 = {};
  for (const pe of sortedElements(set.children.keys())) {
    const child = set.children.get(pe)!;
    const encoded = encodeFieldsV1(child);
    if (child.member && Object.keys(encoded).length > 0) out[pe] = { '.': {}, ...encoded };
    else out[pe] = encoded;
  }
  return out;
}

export function decodeFieldsV1(raw: unknown): FieldSetNode {
  const set = emptySet();
  const walk = (node: FieldSetNode, value: unknown) => {
    if (!value || typeof value !== 'object') return;
    for (const [pe, child] of Object.entries(value as Record<string, unknown>)) {
      if (pe === '.') {
        node.member = true;
        continue;
      }
      const next = emptySet();
      const entries = child && typeof child === 'object' ? Object.keys(child) : [];
      if (entries.length === 0) next.member = true;
      walk(next, child);
      node.children.set(pe, next);
    }
  };
  walk(set, raw);
  return set;
}

// ---- path elements ----

export const fieldPe = (name: string): string => `f:${name}`;
export const valuePe = (value: unknown): string => `v:${JSON.stringify(value)}`;
export const indexPe = (index: number): string => `i:${index}`;
export function keyPe(keys: Record<string, unknown>): string {
  const sorted = Object.fromEntries(
    Object.keys(keys)
      .sort()
      .map((k) => [k, keys[k]]),
  );
  return `k:${JSON.stringify(sorted)}`;
}

function goValueString(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** fieldpath.Path.String(): `.spec.template.spec.containers[name="app"].image`. */
export function pathString(path: FieldPath): string {
  return path
    .map((pe) => {
      const body = pe.slice(2);
      switch (pe[0]) {
        case 'f':
          return `.${body}`;
        case 'k': {
          const keys = JSON.parse(body) as Record<string, unknown>;
          return `[${Object.entries(keys)
            .map(([k, v]) => `${k}=${goValueString(v)}`)
            .join(',')}]`;
        }
        case 'v':
          return `[=${goValueString(JSON.parse(body))}]`;
        default:
          return `[${body}]`;
      }
    })
    .join('');
}
