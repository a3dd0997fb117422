/**
 * Strategic merge patch as the apiserver applies it: a port of
 * k8s.io/apimachinery/pkg/util/strategicpatch (mergeMap and friends, with the apiserver's options
 * MergeParallelList and IgnoreUnmatchedNulls), with the patch metadata (merge key, patch
 * strategy) read from the Kubernetes OpenAPI instead of Go struct tags.
 *
 * Usage (helper A): PATCH with `application/strategic-merge-patch+json`:
 *   const patched = strategicMergePatch(live, JSON.parse(body), apiVersion, kind);
 *   // PatchError → Status with err.code (400 bad directive format, 422 lists of lists, 415 for
 *   // kinds without a built-in schema, 500 otherwise) and err.message.
 * Neither argument is changed.
 */
import { deref, fieldSchema, itemSchema, schemaFor, type Schema } from './openapi.js';
import { PatchError } from './patch-error.js';

export { PatchError } from './patch-error.js';

type Obj = Record<string, unknown>;
type Meta = { strategy: string; mergeKey: string };
/** MergeOptions: the apiserver applies patches with both true; the three-way diff merges patches with both false. */
export interface MergeOptions {
  mergeParallelList: boolean;
  ignoreUnmatchedNulls: boolean;
}
const APISERVER: MergeOptions = { mergeParallelList: true, ignoreUnmatchedNulls: true };

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder';
const DELETE_FROM_PRIMITIVE = '$deleteFromPrimitiveList';

const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's `%v` of a decoded JSON value: `map[image:nginx name:app]`, `[a b]`. */
export function goFormat(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goFormat).join(' ')}]`;
  if (isMap(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goFormat(v[k])}`)
      .join(' ')}]`;
  return String(v);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
export const goType = (v: unknown) =>
  v === null || v === undefined ? 'nil' : Array.isArray(v) ? 'slice' : isMap(v) ? 'map' : typeof v;

const badRequest = (message: string) => new PatchError(message, 400);
const internal = (message: string) => new PatchError(message, 500);
export const errNoMergeKey = (m: unknown, k: string) =>
  internal(`map: ${goFormat(m)} does not contain declared merge key: ${k}`);
const errBadPatchType = (t: unknown, m: unknown) =>
  internal(`unknown patch type: ${goFormat(t)} in map: ${goFormat(m)}`);
export const errBadArgType = (expected: string, actual: unknown) =>
  internal(`expected a ${expected}, but received a ${goType(actual)}`);
const ERR_SET_ORDER = 'invalid patch format of setElementOrder list';
const ERR_PRIMITIVE_LIST = 'invalid patch format of primitive list';
const ERR_RETAIN_KEYS = 'invalid patch format of retainKeys';

export function patchMeta(declared: Schema | undefined): Meta {
  const strategies = (declared?.['x-kubernetes-patch-strategy'] ?? '').split(',').filter(Boolean);
  // extractRetainKeysPatchStrategy: retainKeys is handled by the $retainKeys directive.
  const others = strategies.filter((s) => s !== 'retainKeys');
  if (others.length > 1) throw internal(`unexpected patch strategy: [${strategies.join(' ')}]`);
  return { strategy: others[0] ?? '', mergeKey: declared?.['x-kubernetes-patch-merge-key'] ?? '' };
}
export const lookupStruct = (schema: Schema | undefined, key: string): [Schema | undefined, Meta] => {
  const declared = fieldSchema(schema, key);
  return [declared, patchMeta(declared)];
};
export const lookupSlice = (schema: Schema | undefined, key: string): [Schema | undefined, Meta] => {
  const declared = fieldSchema(schema, key);
  return [itemSchema(declared), patchMeta(declared)];
};

function extractKey(s: string, prefix: string): string {
  const i = s.indexOf('/');
  if (i < 0 || s.slice(0, i) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE) throw badRequest(ERR_PRIMITIVE_LIST);
    if (prefix === SET_ORDER) throw badRequest(ERR_SET_ORDER);
    throw internal(`fail to find unknown prefix "${prefix}" in ${s}\n`);
  }
  return s.slice(i + 1);
}

/** Removes directive maps (and keys holding them); false when obj itself is one. */
function removeDirectives(obj: unknown): [unknown, boolean] {
  if (isMap(obj)) {
    if (DIRECTIVE in obj) return [undefined, false];
    for (const k of Object.keys(obj)) {
      const [v, keep] = removeDirectives(obj[k]);
      if (keep) obj[k] = v;
      else delete obj[k];
    }
    return [obj, true];
  }
  if (Array.isArray(obj)) {
    const out: unknown[] = [];
    for (const v of obj) {
      const [nv, keep] = removeDirectives(v);
      if (keep) out.push(nv);
    }
    return [out, true];
  }
  return [obj, true];
}

function discardNulls(v: unknown): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNulls(v[k]);
    }
  } else if (Array.isArray(v)) v.forEach(discardNulls);
}

export function mergeMap(
  original: Obj | undefined,
  patch: Obj,
  schema: Schema | undefined,
  opts: MergeOptions = APISERVER,
): Obj {
  if (DIRECTIVE in patch) {
    const directive = patch[DIRECTIVE];
    if (directive === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (directive === 'delete') return {};
    throw errBadPatchType(directive, patch);
  }
  const orig = original ?? {};
  applyRetainKeys(orig, patch, opts);
  mergeSetElementOrder(orig, patch, schema, opts);
  for (const rawKey of Object.keys(patch)) {
    const patchV = patch[rawKey];
    let k = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE)) {
      if (!opts.mergeParallelList) {
        orig[rawKey] = patchV;
        continue;
      }
      k = extractKey(rawKey, DELETE_FROM_PRIMITIVE);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[k];
      if (opts.ignoreUnmatchedNulls) continue;
    }
    if (!(k in orig) || goType(orig[k]) !== goType(patchV)) {
      if (!isDeleteList) {
        if (opts.ignoreUnmatchedNulls) discardNulls(patchV);
        const [v, keep] = removeDirectives(patchV);
        if (keep) orig[k] = v;
        else delete orig[k];
      }
      continue;
    }
    if (isMap(patchV)) {
      const [sub, meta] = lookupStruct(schema, k);
      orig[k] = meta.strategy === 'replace' ? patchV : mergeMap(orig[k] as Obj, patchV, sub, opts);
    } else if (Array.isArray(patchV)) {
      const [sub, meta] = lookupSlice(schema, k);
      orig[k] =
        meta.strategy === 'merge' || isDeleteList
          ? mergeSlice(orig[k] as unknown[], patchV, sub, meta.mergeKey, isDeleteList, opts)
          : patchV;
    } else {
      const [v, keep] = removeDirectives(patchV);
      if (keep) orig[k] = v;
      else delete orig[k];
    }
  }
  return orig;
}

function applyRetainKeys(original: Obj, patch: Obj, opts: MergeOptions): void {
  if (!(RETAIN_KEYS in patch)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!opts.mergeParallelList) {
    if (RETAIN_KEYS in original && !sameJson(original[RETAIN_KEYS], list)) {
      throw internal(
        `${goFormat(original[RETAIN_KEYS])} and ${goFormat(list)} are not deep equal: this may happen when calculating the 3-way diff patch`,
      );
    }
    original[RETAIN_KEYS] = list;
    return;
  }
  if (!Array.isArray(list)) throw badRequest(ERR_RETAIN_KEYS);
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE) || k.startsWith(SET_ORDER)) continue;
    if (!keep.has(k)) throw badRequest(ERR_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** mergePatchIntoOriginal: lists with a $setElementOrder directive, in the order it gives. */
function mergeSetElementOrder(
  original: Obj,
  patch: Obj,
  schema: Schema | undefined,
  opts: MergeOptions,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ORDER)) continue;
    const order = patch[key];
    if (!opts.mergeParallelList) {
      if (key in original && !sameJson(original[key], order)) throw badRequest(ERR_SET_ORDER);
      original[key] = order;
    }
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const originalKey = extractKey(key, SET_ORDER);
    const foundOriginal = originalKey in original;
    const foundPatch = originalKey in patch;
    const originalList = original[originalKey];
    const patchList = patch[originalKey];
    if (foundOriginal && !Array.isArray(originalList)) throw errBadArgType('slice', originalList);
    if (foundPatch && !Array.isArray(patchList)) throw errBadArgType('slice', patchList);
    const [sub, meta] = lookupSlice(schema, originalKey);
    validateWithSetOrder((patchList as unknown[]) ?? [], order, meta.mergeKey);
    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalList as unknown[];
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList)[0] as unknown[];
    else if (foundOriginal && foundPatch) {
      merged =
        meta.strategy === 'merge'
          ? mergeSlice(originalList as unknown[], patchList as unknown[], sub, meta.mergeKey, false, opts)
          : (patchList as unknown[]);
    } else continue;
    const [patchItems, serverOnly] = partition(merged, order, meta.mergeKey);
    const kind = sliceElementType([(originalList as unknown[]) ?? [], (patchList as unknown[]) ?? []]);
    const serverOrder =
      foundOriginal && foundPatch && meta.strategy === 'merge' && kind === 'map'
        ? aliasedOriginal(originalList as unknown[], patchList as unknown[], meta.mergeKey)
        : ((originalList as unknown[]) ?? []);
    original[originalKey] = normalizeElementOrder(
      patchItems,
      serverOnly,
      order,
      serverOrder,
      meta.mergeKey,
      kind,
    );
    delete patch[originalKey];
  }
}

/**
 * What Go's `originalFieldValue` holds after mergeSlice worked on the same backing array: deleting
 * entries shifts the later ones left in place, and appends fill the spare capacity that decoding
 * left (capacities grow 1, 2, 4, 8…). The order of server-only items depends on it.
 */
function aliasedOriginal(original: unknown[], patch: unknown[], mergeKey: string): unknown[] {
  const n = original.length;
  let cap = 1;
  while (cap < n) cap *= 2;
  const backing = [...original];
  let len = n;
  const indexOf = (key: unknown) => backing.slice(0, len).findIndex((v) => isMap(v) && v[mergeKey] === key);
  const special = patch.filter((v) => isMap(v) && DIRECTIVE in v) as Obj[];
  if (special.some((v) => v[DIRECTIVE] === 'replace')) return original;
  for (const d of special) {
    for (let i = indexOf(d[mergeKey]); i >= 0; i = indexOf(d[mergeKey])) {
      for (let k = i; k < len - 1; k++) backing[k] = backing[k + 1];
      len--;
    }
  }
  for (const v of patch) {
    if (!isMap(v) || DIRECTIVE in v || indexOf(v[mergeKey]) >= 0) continue;
    if (len >= cap) break; // a new backing array: the original no longer sees the appends
    backing[len++] = v;
  }
  return backing.slice(0, n);
}

function validateWithSetOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDelete(patchList)[0] : patchList;
  let p = 0;
  let o = 0;
  while (p < nonDelete.length && o < order.length) {
    const item = nonDelete[p];
    if (isMap(item) && DIRECTIVE in item) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < nonDelete.length && o >= order.length) {
    throw internal(
      `The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ORDER} list:\n${goFormat(order)}\n`,
    );
  }
}

function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (!mergeKey) return left === right;
  if (!isMap(left)) throw errBadArgType('map', left);
  if (!isMap(right)) throw errBadArgType('map', right);
  if (!(mergeKey in left)) throw errNoMergeKey(left, mergeKey);
  if (!(mergeKey in right)) throw errNoMergeKey(right, mergeKey);
  return left[mergeKey] === right[mergeKey];
}

function extractToDelete(list: unknown[]): [unknown[], unknown[]] {
  const keep: unknown[] = [];
  const del: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    (v[DIRECTIVE] === 'delete' ? del : keep).push(v);
  }
  return [keep, del];
}

export function sliceElementType(slices: unknown[][]): string {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === 'slice') throw new PatchError('lists of lists are not supported', 422);
      } else if (prev !== t) {
        throw internal(`list element types are not identical: [${slices.map(goFormat).join(' ')}]`);
      }
    }
  }
  if (prev === undefined) throw internal('no elements in any of the given slices');
  return prev;
}

function mergeSlice(
  original: unknown[],
  patch: unknown[],
  schema: Schema | undefined,
  mergeKey: string,
  isDeleteList: boolean,
  opts: MergeOptions,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType([original, patch]);
  let merged: unknown[];
  let orig = original;
  let p = patch;
  if (kind !== 'map') {
    if (isDeleteList && opts.mergeParallelList) return original.filter((v) => !patch.includes(v));
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (!mergeKey) throw internal(`cannot merge lists without merge key for ${schemaName(schema)}`);
    [orig, p] = mergeWithSpecialElements(original, patch, mergeKey);
    merged = mergeWithoutSpecialElements(orig, p, mergeKey, schema, opts);
  }
  const [patchItems, serverOnly] = partition(merged, p, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, p, orig, mergeKey, kind);
}

function schemaName(schema: Schema | undefined): string {
  const ref = schema?.$ref ?? '';
  return ref.slice(ref.lastIndexOf('.') + 1);
}

/** Go's deduplicateScalars, which swaps the last element into a duplicate's place. */
export function deduplicateScalars(s: unknown[]): unknown[] {
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}

function mergeWithSpecialElements(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const m = v as Obj;
    if (!(DIRECTIVE in m)) {
      plain.push(v);
      continue;
    }
    const directive = m[DIRECTIVE];
    if (directive === 'delete') {
      if (!(mergeKey in m)) throw errNoMergeKey(m, mergeKey);
      orig = orig.filter((item, index) => {
        if (!isMap(item)) throw internal(`value for key ${index} is not a map`);
        return item[mergeKey] !== m[mergeKey];
      });
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw internal('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, m);
    }
  }
  return replace ? [plain, []] : [orig, plain];
}

function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isMap(item)) throw internal(`value for key ${i} is not a map`);
    if (item[key] === value) return i;
  }
  return -1;
}

function mergeWithoutSpecialElements(
  original: unknown[],
  patch: unknown[],
  mergeKey: string,
  schema: Schema | undefined,
  opts: MergeOptions,
): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const m = v as Obj;
    if (!(mergeKey in m)) throw errNoMergeKey(m, mergeKey);
    const i = findByKey(out, mergeKey, m[mergeKey]);
    if (i >= 0) out[i] = mergeMap(out[i] as Obj, m, schema, opts);
    else out.push(v);
  }
  return out;
}

function partition(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) {
    let found: boolean;
    if (!mergeKey) found = by.includes(v);
    else {
      if (!isMap(v)) throw errBadArgType('map', v);
      if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
      found = findByKey(by, mergeKey, v[mergeKey]) >= 0;
    }
    (found ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

function indexIn(list: unknown[], item: unknown, mergeKey: string, kind: string): number {
  const val = (v: unknown) => (kind === 'map' ? (isMap(v) ? v[mergeKey] : undefined) : v);
  const target = val(item);
  return list.findIndex((v) => val(v) === target);
}

export function normalizeSliceOrder(
  toSort: unknown[],
  order: unknown[],
  mergeKey: string,
  kind: string,
): unknown[] {
  let items = [...toSort];
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    for (const list of [items, order]) {
      for (const v of list) {
        if (!isMap(v)) throw errBadArgType('map', v);
        if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
      }
    }
    [items, toDelete] = extractToDelete(items);
  }
  // sort.SliceStable with the same (not strict) comparison: insertion sort, as Go does for short lists.
  const less = (a: unknown, b: unknown) => {
    const ia = indexIn(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexIn(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  };
  for (let i = 1; i < items.length; i++) {
    for (let j = i; j > 0 && less(items[j], items[j - 1]); j--)
      [items[j], items[j - 1]] = [items[j - 1], items[j]];
  }
  return [...items, ...toDelete];
}

function normalizeElementOrder(
  patch: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: string,
): unknown[] {
  const right = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const left = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  // mergeSortedSlice: server-only items go before the first patch item that comes after them live.
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/** Applies a strategic merge patch to `original` for a built-in kind. */
export function strategicMergePatch<T extends object>(
  original: T,
  patch: unknown,
  apiVersion: string,
  kind: string,
): T {
  const schema = schemaFor(apiVersion, kind);
  if (!schema) {
    throw new PatchError(
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      415,
    );
  }
  if (!isMap(patch)) throw badRequest('invalid JSON document');
  return mergeMap(structuredClone(original) as Obj, structuredClone(patch), deref(schema)) as T;
}
