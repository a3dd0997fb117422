/**
 * Making strategic merge patches, as kubectl does for a client-side `kubectl apply`: a port of
 * strategicpatch.CreateTwoWayMergePatch and CreateThreeWayMergePatch (with overwrite, kubectl's
 * default, so without the conflict check). Patch metadata comes from the OpenAPI.
 *
 *   createTwoWayMergePatch(original, modified, apiVersion, kind)            → patch
 *   createThreeWayMergePatch(lastApplied, modified, live, apiVersion, kind) → patch
 * where lastApplied is the `kubectl.kubernetes.io/last-applied-configuration` object (or {}).
 * Applying the patch to `original` (two-way) or to `live` (three-way) with strategicMergePatch
 * gives `modified`, keeping in the three-way case what others set on the live object.
 */
import { deref, schemaFor, type Schema } from './openapi.js';
import {
  PatchError,
  deduplicateScalars,
  errBadArgType,
  errNoMergeKey,
  goType,
  lookupSlice,
  lookupStruct,
  mergeMap,
  normalizeSliceOrder,
  sliceElementType,
} from './strategic-merge.js';

type Obj = Record<string, unknown>;
interface DiffOptions {
  setElementOrder: boolean;
  ignoreChangesAndAdditions: boolean;
  ignoreDeletions: boolean;
  buildRetainKeysDirective: boolean;
}

const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const deepEqual = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isMap(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys(v[k])]),
  );
}
const goString = (v: unknown) => (v === null || v === undefined ? '<nil>' : String(v));
const byString = (a: unknown, b: unknown) =>
  goString(a) < goString(b) ? -1 : goString(a) > goString(b) ? 1 : 0;
const sortScalars = (s: unknown[]) => [...s].sort(byString);

function diffMaps(original: Obj, modified: Obj, schema: Schema | undefined, opts: DiffOptions): Obj {
  const patch: Obj = {};
  const retainKeys: string[] = [];
  for (const [key, modifiedValue] of Object.entries(modified)) {
    if (opts.buildRetainKeysDirective && modifiedValue !== null) retainKeys.push(key);
    if (!(key in original)) {
      if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    const originalValue = original[key];
    if (key === '$patch') {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string')
        throw new PatchError('invalid value for special key: $patch', 500);
      if (originalValue !== modifiedValue) patch[key] = modifiedValue;
      continue;
    }
    if (goType(originalValue) !== goType(modifiedValue)) {
      if (!opts.ignoreChangesAndAdditions) patch[key] = modifiedValue;
      continue;
    }
    if (isMap(originalValue)) handleMapDiff(key, originalValue, modifiedValue as Obj, patch, schema, opts);
    else if (Array.isArray(originalValue))
      handleSliceDiff(key, originalValue, modifiedValue as unknown[], patch, schema, opts);
    else if (!opts.ignoreChangesAndAdditions && !deepEqual(originalValue, modifiedValue))
      patch[key] = modifiedValue;
  }
  if (!opts.ignoreDeletions)
    for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null;
  const hasAdditionalField = Object.entries(original).some(([k, v]) => v !== null && !(k in modified));
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || hasAdditionalField))
    patch.$retainKeys = sortScalars(retainKeys);
  return patch;
}

function handleMapDiff(
  key: string,
  original: Obj,
  modified: Obj,
  patch: Obj,
  schema: Schema | undefined,
  opts: DiffOptions,
): void {
  const [sub, meta, retainKeys] = withRetainKeys(lookupStruct, schema, key);
  if (meta.strategy === 'replace') {
    if (!opts.ignoreChangesAndAdditions) patch[key] = modified;
    return;
  }
  const value = diffMaps(original, modified, sub, { ...opts, buildRetainKeysDirective: retainKeys });
  if (Object.keys(value).length > 0) patch[key] = value;
}

function withRetainKeys(
  lookup: typeof lookupStruct,
  schema: Schema | undefined,
  key: string,
): [Schema | undefined, { strategy: string; mergeKey: string }, boolean] {
  const [sub, meta] = lookup(schema, key);
  const declared = deref(schema)?.properties?.[key];
  const retainKeys = (declared?.['x-kubernetes-patch-strategy'] ?? '').split(',').includes('retainKeys');
  return [sub, meta, retainKeys];
}

function handleSliceDiff(
  key: string,
  original: unknown[],
  modified: unknown[],
  patch: Obj,
  schema: Schema | undefined,
  opts: DiffOptions,
): void {
  const [sub, meta, retainKeys] = withRetainKeys(lookupSlice, schema, key);
  if (meta.strategy !== 'merge') {
    if (!opts.ignoreChangesAndAdditions && !deepEqual(original, modified)) patch[key] = modified;
    return;
  }
  const [add, del, order] = diffLists(original, modified, sub, meta.mergeKey, {
    ...opts,
    buildRetainKeysDirective: retainKeys,
  });
  if (add.length > 0) patch[key] = add;
  if (del.length > 0) patch[`$deleteFromPrimitiveList/${key}`] = del;
  if (order.length > 0) patch[`$setElementOrder/${key}`] = order;
}

function diffLists(
  original: unknown[],
  modified: unknown[],
  schema: Schema | undefined,
  mergeKey: string,
  opts: DiffOptions,
): [unknown[], unknown[], unknown[]] {
  if (original.length === 0) {
    if (modified.length === 0 || opts.ignoreChangesAndAdditions) return [[], [], []];
    return [modified, [], []];
  }
  const kind = sliceElementType([original, modified]);
  let order: unknown[] = [];
  if (kind === 'map') {
    const [changes, deletions] = diffListsOfMaps(original, modified, schema, mergeKey, opts);
    const sorted = normalizeSliceOrder(changes, modified, mergeKey, kind);
    const orderSame =
      original.length === modified.length &&
      modified.every((m, i) => (original[i] as Obj)[mergeKey] === (m as Obj)[mergeKey]);
    const patchList = [...sorted, ...deletions];
    if (
      opts.setElementOrder &&
      ((!opts.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) ||
        (!opts.ignoreDeletions && patchList.length > 0))
    ) {
      order = modified.map((m) => ({ [mergeKey]: (m as Obj)[mergeKey] }));
    }
    return [patchList, [], order];
  }
  const [adds, deletions] = diffListsOfScalars(original, modified, opts);
  const patchList = normalizeSliceOrder(adds, modified, mergeKey, kind);
  if (
    opts.setElementOrder &&
    ((!opts.ignoreDeletions && deletions.length > 0) ||
      (!opts.ignoreChangesAndAdditions && !deepEqual(original, modified)))
  ) {
    order = modified;
  }
  return [patchList, deletions, order];
}

function diffListsOfScalars(
  original: unknown[],
  modified: unknown[],
  opts: DiffOptions,
): [unknown[], unknown[]] {
  const o = sortScalars(original);
  const m = sortScalars(modified);
  const adds: unknown[] = [];
  const deletions: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < o.length || j < m.length) {
    const os = i < o.length ? goString(o[i]) : undefined;
    const ms = j < m.length ? goString(m[j]) : undefined;
    if (os !== undefined && ms !== undefined && os === ms) {
      i++;
      j++;
    } else if (os === undefined || (ms !== undefined && os > ms)) {
      if (!opts.ignoreChangesAndAdditions) adds.push(m[j]);
      j++;
    } else {
      if (!opts.ignoreDeletions) deletions.push(o[i]);
      i++;
    }
  }
  return [adds, deduplicateScalars(deletions)];
}

function sortByMergeKey(list: unknown[], mergeKey: string): Obj[] {
  return list
    .map((v) => {
      if (!isMap(v)) throw errBadArgType('map', v);
      if (!(mergeKey in v)) throw errNoMergeKey(v, mergeKey);
      return v;
    })
    .sort((a, b) => byString(a[mergeKey], b[mergeKey]));
}

function diffListsOfMaps(
  original: unknown[],
  modified: unknown[],
  schema: Schema | undefined,
  mergeKey: string,
  opts: DiffOptions,
): [unknown[], unknown[]] {
  const o = sortByMergeKey(original, mergeKey);
  const m = sortByMergeKey(modified, mergeKey);
  const patch: unknown[] = [];
  const deletions: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < o.length || j < m.length) {
    const ok = i < o.length ? goString(o[i]![mergeKey]) : undefined;
    const mk = j < m.length ? goString(m[j]![mergeKey]) : undefined;
    if (ok !== undefined && mk !== undefined && ok === mk) {
      const value = diffMaps(o[i]!, m[j]!, schema, opts);
      if (Object.keys(value).length > 0) patch.push({ ...value, [mergeKey]: m[j]![mergeKey] });
      i++;
      j++;
    } else if (ok === undefined || (mk !== undefined && ok > mk)) {
      if (!opts.ignoreChangesAndAdditions) patch.push(m[j]);
      j++;
    } else {
      if (!opts.ignoreDeletions) deletions.push({ [mergeKey]: o[i]![mergeKey], $patch: 'delete' });
      i++;
    }
  }
  return [patch, deletions];
}

function schemaOf(apiVersion: string, kind: string): Schema | undefined {
  const schema = schemaFor(apiVersion, kind);
  if (!schema)
    throw new PatchError(`unable to find api field in struct Unstructured for the json field "${kind}"`, 500);
  return deref(schema);
}

const NO_OPTIONS: DiffOptions = {
  setElementOrder: false,
  ignoreChangesAndAdditions: false,
  ignoreDeletions: false,
  buildRetainKeysDirective: false,
};

/** The patch that turns `original` into `modified`. */
export function createTwoWayMergePatch(
  original: object,
  modified: object,
  apiVersion: string,
  kind: string,
): Obj {
  return twoWayMergePatchForSchema(original, modified, schemaOf(apiVersion, kind));
}

/** createTwoWayMergePatch with the patch metadata from any schema (tests use a synthetic one). */
export function twoWayMergePatchForSchema(
  original: object,
  modified: object,
  schema: Schema | undefined,
): Obj {
  return diffMaps(structuredClone(original) as Obj, structuredClone(modified) as Obj, schema, {
    ...NO_OPTIONS,
    setElementOrder: true,
  });
}

/**
 * kubectl apply's patch: what changed from `live` to `modified` (no deletions), plus what was
 * deleted from `lastApplied` to `modified`.
 */
export function createThreeWayMergePatch(
  lastApplied: object,
  modified: object,
  live: object,
  apiVersion: string,
  kind: string,
): Obj {
  return threeWayMergePatchForSchema(lastApplied, modified, live, schemaOf(apiVersion, kind));
}

/** createThreeWayMergePatch with the patch metadata from any schema. */
export function threeWayMergePatchForSchema(
  lastApplied: object,
  modified: object,
  live: object,
  schema: Schema | undefined,
): Obj {
  const delta = diffMaps(structuredClone(live) as Obj, structuredClone(modified) as Obj, schema, {
    ...NO_OPTIONS,
    ignoreDeletions: true,
    setElementOrder: true,
  });
  const deletions = diffMaps(structuredClone(lastApplied) as Obj, structuredClone(modified) as Obj, schema, {
    ...NO_OPTIONS,
    setElementOrder: true,
    ignoreChangesAndAdditions: true,
  });
  return mergeMap(deletions, delta, schema, { mergeParallelList: false, ignoreUnmatchedNulls: false });
}
