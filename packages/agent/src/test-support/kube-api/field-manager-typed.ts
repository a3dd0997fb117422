/**
 * The walks structured-merge-diff makes over a typed value (its typed/ package): the field set of
 * a value (tofieldset.go), the comparison of two values (compare.go), the merge of an applied
 * configuration into a live object (merge.go) and the removal of a field set (remove.go). The
 * type of each node comes from the Kubernetes OpenAPI through `shapeOf`: structs, maps, lists
 * (atomic, set, or map with keys), scalars; without a schema a value is "deduced" (objects are
 * granular maps, lists atomic) as for an untyped object.
 */
import { fieldSchema, isDeclaredField, itemSchema, shapeOf, type Schema, type Shape } from './openapi.js';
import {
  emptySet,
  fieldPe,
  indexPe,
  insertPath,
  keyPe,
  pathString,
  valuePe,
  type FieldPath,
  type FieldSetNode,
} from './field-manager-set.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Thrown when a value does not fit its schema's list keys (the apiserver answers 500 for apply, as it does). */
export class TypedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TypedValueError';
  }
}

// Key fields with a schema default (the v3 schema has `default: "TCP"` on every `protocol` key).
const KEY_DEFAULTS: Record<string, Json> = { protocol: 'TCP' };

/** The shape of a node: from the schema, or deduced from the value when there is none. */
function shapeFor(schema: Schema | undefined, value: unknown): Shape {
  const shape = schema ? shapeOf(schema) : ({ kind: 'untyped', atomic: false } as Shape);
  if (shape.kind !== 'untyped') return shape;
  if (Array.isArray(value)) return { kind: 'list', atomic: true, listType: 'atomic' };
  if (isObject(value)) return { kind: 'map', atomic: false };
  return { kind: 'scalar', atomic: true };
}

/** The path element of a list item (listItemToPathElement). */
export function listItemPe(shape: Shape, item: unknown, index: number, path: FieldPath): string {
  if (shape.listType === 'map' && shape.keys && shape.keys.length > 0) {
    if (!isObject(item))
      throw new TypedValueError(
        `${printable(path)}: element ${index}: associative list with keys may only have map elements`,
      );
    const keys: Record<string, Json> = {};
    for (const key of shape.keys) {
      const v = item[key] ?? KEY_DEFAULTS[key];
      if (v === undefined || v === null) {
        throw new TypedValueError(
          `${printable(path)}: element ${index}: associative list with keys has an element that omits key field "${key}" (and doesn't have default value)`,
        );
      }
      keys[key] = v;
    }
    return keyPe(keys);
  }
  if (shape.listType === 'set' || shape.listType === 'map') return valuePe(item);
  return indexPe(index);
}

const printable = (path: FieldPath): string => pathString(path);

function childSchema(schema: Schema | undefined, key: string): Schema | undefined {
  return schema ? fieldSchema(schema, key) : undefined;
}

// ---- ToFieldSet ----

/** The field set of a value; `strict` (for an applied configuration) refuses duplicate list keys as SMD does. */
export function toFieldSet(value: unknown, schema: Schema | undefined, strict = false): FieldSetNode {
  const set = emptySet();
  walkToSet(value, schema, [], set, strict);
  return set;
}

function walkToSet(
  value: unknown,
  schema: Schema | undefined,
  path: string[],
  set: FieldSetNode,
  strict = false,
): void {
  const shape = shapeFor(schema, value);
  if (shape.kind === 'scalar') {
    insertPath(set, path);
    return;
  }
  if (shape.kind === 'list') {
    if (shape.atomic) {
      insertPath(set, path);
      return;
    }
    if (!Array.isArray(value)) return;
    const pes = value.map((item, i) => listItemPe(shape, item, i, path));
    const seen = new Set<string>();
    const duplicates = new Set<string>();
    for (const pe of pes) {
      if (seen.has(pe)) {
        if (strict)
          throw new TypedValueError(`${printable(path)}: duplicate entries for key ${pathString([pe])}`);
        duplicates.add(pe);
      }
      seen.add(pe);
    }
    // Items with a duplicated key are owned as a whole (tofieldset.go).
    for (const pe of duplicates) insertPath(set, [...path, pe]);
    value.forEach((item, i) => {
      const pe = pes[i]!;
      if (duplicates.has(pe)) return;
      walkToSet(item, itemSchema(schema), [...path, pe], set, strict);
      insertPath(set, [...path, pe]);
    });
    return;
  }
  if (shape.atomic) {
    insertPath(set, path);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const p = [...path, fieldPe(key)];
    // validate.go: an applied configuration may not carry fields its (closed) struct lacks.
    if (strict && schema && shape.kind === 'struct' && !fieldSchema(schema, key)) {
      throw new TypedValueError(`${pathString(p)}: field not declared in schema`);
    }
    walkToSet(v, childSchema(schema, key), p, set, strict);
    if (v === null || (isObject(v) && Object.keys(v).length === 0)) insertPath(set, p);
    else if (!schema || !isDeclaredField(schema, key)) insertPath(set, p);
  }
}

// ---- Compare ----

export interface Comparison {
  added: FieldSetNode;
  modified: FieldSetNode;
  removed: FieldSetNode;
}

export function compare(lhs: unknown, rhs: unknown, schema: Schema | undefined): Comparison {
  const c: Comparison = { added: emptySet(), modified: emptySet(), removed: emptySet() };
  compareNode(lhs, rhs, schema, [], c);
  return c;
}

function leaf(lhs: unknown, rhs: unknown, path: string[], c: Comparison): void {
  if (lhs === undefined) insertPath(c.added, path);
  else if (rhs === undefined) insertPath(c.removed, path);
  else if (!deepEqual(lhs, rhs)) insertPath(c.modified, path);
}

function groupItems(shape: Shape, list: unknown, path: FieldPath): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  if (!Array.isArray(list)) return out;
  list.forEach((item, i) => {
    const pe = listItemPe(shape, item, i, path);
    out.set(pe, [...(out.get(pe) ?? []), item]);
  });
  return out;
}

function compareNode(
  lhs: unknown,
  rhs: unknown,
  schema: Schema | undefined,
  path: string[],
  c: Comparison,
): void {
  const shape = shapeFor(schema, rhs === undefined ? lhs : rhs);
  const emptyish = (v: unknown) =>
    v === undefined ||
    v === null ||
    (Array.isArray(v) && v.length === 0) ||
    (isObject(v) && Object.keys(v).length === 0);
  if (shape.kind === 'scalar' || shape.atomic || (emptyish(lhs) && emptyish(rhs))) {
    leaf(lhs, rhs, path, c);
    return;
  }
  if (shape.kind === 'list') {
    const l = groupItems(shape, lhs, path);
    const r = groupItems(shape, rhs, path);
    for (const pe of new Set([...l.keys(), ...r.keys()])) {
      const ls = l.get(pe) ?? [];
      const rs = r.get(pe) ?? [];
      const p = [...path, pe];
      if (ls.length <= 1 && rs.length <= 1) compareNode(ls[0], rs[0], itemSchema(schema), p, c);
      // compare.go: items with a duplicated key compare as a whole.
      else if (ls.length >= 2 && rs.length >= 2) {
        if (!deepEqual(ls, rs)) insertPath(c.modified, p);
      } else if (ls.length >= 2) {
        if (rs.length > 0) compareNode(undefined, rs[0], itemSchema(schema), p, c);
        insertPath(c.removed, p);
      } else {
        if (ls.length > 0) compareNode(ls[0], undefined, itemSchema(schema), p, c);
        insertPath(c.added, p);
      }
    }
  } else {
    const l = isObject(lhs) ? lhs : {};
    const r = isObject(rhs) ? rhs : {};
    for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
      compareNode(l[key], r[key], childSchema(schema, key), [...path, fieldPe(key)], c);
    }
  }
  if (path.length > 0) {
    if (lhs === undefined) insertPath(c.added, path);
    else if (rhs === undefined) insertPath(c.removed, path);
  }
}

// ---- Merge ----

/** Merges an applied configuration into a live value (typed.Merge): rhs wins, granular parts merge. */
export function merge(lhs: unknown, rhs: unknown, schema: Schema | undefined, path: string[] = []): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined || lhs === null) return structuredClone(rhs);
  const shape = shapeFor(schema, rhs === null ? lhs : rhs);
  if (shape.kind === 'scalar' || shape.atomic) return structuredClone(rhs);
  // A null granular map or list has no opinion on its items: the live ones stay (merge.go derefs it to nil).
  if (rhs === null) return structuredClone(lhs);
  if (shape.kind === 'list') {
    if (!Array.isArray(lhs) || !Array.isArray(rhs)) return structuredClone(rhs);
    return mergeList(lhs, rhs, shape, itemSchema(schema), path);
  }
  if (!isObject(lhs) || !isObject(rhs)) return structuredClone(rhs);
  const out: Record<string, unknown> = { ...lhs };
  for (const [key, v] of Object.entries(rhs))
    out[key] = merge(lhs[key], v, childSchema(schema, key), [...path, fieldPe(key)]);
  return out;
}

/**
 * typed/merge.go visitListItems: lhs-only items keep their places, shared and new items follow
 * rhs order; live items with a duplicated key are replaced by the applied item.
 */
function mergeList(
  lhs: unknown[],
  rhs: unknown[],
  shape: Shape,
  items: Schema | undefined,
  path: string[],
): unknown[] {
  const lPes = lhs.map((item, i) => listItemPe(shape, item, i, path));
  const rPes = rhs.map((item, i) => listItemPe(shape, item, i, path));
  const lByPe = new Map<string, unknown>();
  lPes.forEach((pe, i) => lByPe.set(pe, lByPe.has(pe) ? null : lhs[i]));
  const rByPe = new Map<string, unknown>();
  rPes.forEach((pe, i) => rByPe.has(pe) || rByPe.set(pe, rhs[i]));
  const shared = rPes.filter((pe) => lByPe.has(pe));
  let next = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const mergeItem = (pe: string, l: unknown, r: unknown) => {
    const v = merge(l === null ? undefined : l, r, items, [...path, pe]);
    if (v !== undefined) out.push(v);
  };
  let l = 0;
  let r = 0;
  while (l < lPes.length || r < rPes.length) {
    if (l < lPes.length && r < rPes.length) {
      const pe = lPes[l]!;
      if (pe === rPes[r]) {
        merged.add(pe);
        mergeItem(pe, lByPe.get(pe), rByPe.get(pe));
        l++;
        r++;
        next++;
        continue;
      }
      if (rByPe.has(pe) && shared[next] !== undefined && shared[next] !== pe) {
        l++; // a shared item, but not the one this round wants
        continue;
      }
    }
    if (l < lPes.length) {
      const pe = lPes[l]!;
      if (!rByPe.has(pe)) {
        mergeItem(pe, lhs[l], undefined);
        l++;
        continue;
      } else if (merged.has(pe)) {
        l++;
      }
    }
    if (r < rPes.length) {
      const pe = rPes[r]!;
      merged.add(pe);
      mergeItem(pe, lByPe.get(pe), rByPe.get(pe));
      r++;
      if (shared[next] === pe) next++;
    }
  }
  return out;
}

// ---- RemoveItems ----

/** The value without the members of `set` (typed.RemoveItems); emptied maps and lists become null. */
export function removeItems(
  value: unknown,
  set: FieldSetNode,
  schema: Schema | undefined,
  path: string[] = [],
): unknown {
  const shape = shapeFor(schema, value);
  if (shape.kind === 'scalar') return value;
  if (shape.kind === 'list') {
    if (!Array.isArray(value) || value.length === 0 || shape.atomic) return null;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = listItemPe(shape, item, i, path);
      const sub = set.children.get(pe);
      if (sub?.member) return;
      out.push(
        sub && sub.children.size > 0 ? removeItems(item, sub, itemSchema(schema), [...path, pe]) : item,
      );
    });
    return out.length > 0 ? out : null;
  }
  if (!isObject(value) || Object.keys(value).length === 0 || shape.atomic) return null;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const sub = set.children.get(fieldPe(key));
    if (sub?.member) continue;
    out[key] =
      sub && sub.children.size > 0
        ? removeItems(v, sub, childSchema(schema, key), [...path, fieldPe(key)])
        : v;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Set.EnsureNamedFieldsAreMembers: every declared struct field on a path becomes a member too. */
export function ensureNamedFieldsAreMembers(set: FieldSetNode, schema: Schema | undefined): FieldSetNode {
  const out: FieldSetNode = { member: set.member, children: new Map() };
  for (const [pe, child] of set.children) {
    let sub: Schema | undefined;
    let named = false;
    if (pe.startsWith('f:')) {
      const name = pe.slice(2);
      sub = childSchema(schema, name);
      named = Boolean(schema && shapeOf(schema).kind === 'struct' && isDeclaredField(schema, name));
    } else if (pe.startsWith('k:') || pe.startsWith('v:') || pe.startsWith('i:')) {
      sub = itemSchema(schema);
    }
    const converted = ensureNamedFieldsAreMembers(child, sub);
    if (named) converted.member = true;
    out.children.set(pe, converted);
  }
  return out;
}

/** Drops null-valued fields of objects, as decoding into the Go types does. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out;
}
