/**
 * Server-side apply and field ownership as the apiserver does them with structured-merge-diff
 * (merge/update.go, and k8s.io/apimachinery/pkg/util/managedfields/internal).
 *
 * Usage (helper A, the HTTP verbs):
 *   PATCH application/apply-patch+yaml (fieldManager required, force from ?force=true):
 *     const { object } = applyServerSide(live, applied, { manager, force, apiVersion, kind });
 *     // then applyDefaults(object), validate, store. object.metadata.managedFields is filled in.
 *     // ApplyConflictError → 409 Conflict: { reason: 'Conflict', message: err.message,
 *     //   details: { causes: err.causes } }. TypedValueError → 500 with its message.
 *   POST / PUT / other PATCHes (after defaulting, before storing):
 *     after.metadata.managedFields = recordUpdate(before, after, { manager, operation: 'Update', apiVersion });
 *     manager defaults as the apiserver does: the user agent's first word ("kubectl-client-side-apply",
 *     "helm", "kubectl-edit"...), when the request names no fieldManager.
 *   /status and /scale writes pass `subresource: 'status' | 'scale'`.
 * applyServerSide refuses (PatchError 400) a body carrying managedFields or another apiVersion.
 * recordUpdate takes managedFields from the live object, unless the request resets them (`[]`,
 * `[{}]`) or sets its own (decodeLiveOrNew); entries without fieldsV1 count as empty. Status is
 * reset: the main resource owns no `status`, /status owns only it. A no-op apply keeps the
 * entry's time; `now` (RFC 3339, seconds) is for tests. applyWithSchema / recordUpdateWithSchema
 * take any schema (tests of structured-merge-diff's cases). Nulls are dropped from the result, as
 * decoding into the Go types does (structured-merge-diff itself would keep them).
 */
import { deref, schemaFor, type Schema } from './openapi.js';
import { PatchError } from './patch-error.js';
import {
  decodeFieldsV1,
  difference,
  emptySet,
  encodeFieldsV1,
  hasPath,
  intersection,
  isEmptySet,
  members,
  pathString,
  union,
  type FieldSetNode,
  type FieldsV1,
} from './field-manager-set.js';
import {
  compare,
  deepEqual,
  dropNulls,
  ensureNamedFieldsAreMembers,
  isObject,
  merge,
  removeItems,
  toFieldSet,
  TypedValueError,
  type Comparison,
} from './field-manager-typed.js';

export { TypedValueError };

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: FieldsV1;
  subresource?: string;
}

export interface ApplyOptions {
  manager: string;
  force: boolean;
  apiVersion: string;
  kind: string;
  subresource?: string;
  now?: string;
}

export interface UpdateOptions {
  manager: string;
  operation: 'Update';
  apiVersion: string;
  kind?: string;
  subresource?: string;
  now?: string;
}

export interface Conflict {
  manager: string;
  field: string;
  /** The field as path elements (`['f:spec', 'f:replicas']`). */
  path?: readonly string[];
}

/** The apiserver's 409 for apply: `Apply failed with 1 conflict: conflict with "x" using apps/v1: .spec.replicas`. */
export class ApplyConflictError extends Error {
  readonly code = 409;
  readonly reason = 'Conflict';
  readonly causes: { type: 'FieldManagerConflict'; message: string; field: string }[];
  constructor(readonly conflicts: Conflict[]) {
    super(conflictMessage(conflicts));
    this.name = 'ApplyConflictError';
    this.causes = conflicts.map((c) => ({
      type: 'FieldManagerConflict',
      message: `conflict with ${c.manager}`,
      field: c.field,
    }));
  }
}

function conflictMessage(conflicts: Conflict[]): string {
  if (conflicts.length === 1)
    return `Apply failed with 1 conflict: conflict with ${conflicts[0]!.manager}: ${conflicts[0]!.field}`;
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) byManager.set(c.manager, [...(byManager.get(c.manager) ?? []), c.field]);
  const lines: string[] = [];
  for (const manager of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${manager}:`);
    for (const field of byManager.get(manager)!) lines.push(`- ${field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

interface Managed {
  entry: Omit<ManagedFieldsEntry, 'fieldsV1' | 'fieldsType'>;
  set: FieldSetNode;
}

const identity = (e: { manager: string; operation: string; apiVersion: string; subresource?: string }) =>
  JSON.stringify([e.manager, e.operation, e.operation === 'Apply' ? '' : e.apiVersion, e.subresource ?? '']);

/** printManager: `"kubectl"` for appliers, `"helm" using apps/v1` for updaters. */
function printManager(e: Managed['entry']): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion}` : s;
}

// stripmeta.go: fields no manager owns.
const STRIPPED = ['apiVersion', 'kind', 'metadata']
  .map((f) => [`f:${f}`])
  .concat(
    [
      'name',
      'namespace',
      'creationTimestamp',
      'selfLink',
      'uid',
      'clusterName',
      'generation',
      'managedFields',
      'resourceVersion',
    ].map((f) => ['f:metadata', `f:${f}`]),
  );
function stripMeta(set: FieldSetNode): FieldSetNode {
  const strip = emptySet();
  for (const p of STRIPPED) {
    let node = strip;
    for (const pe of p) {
      if (!node.children.has(pe)) node.children.set(pe, emptySet());
      node = node.children.get(pe)!;
    }
    node.member = true;
  }
  return difference(set, strip);
}

/** The part of a field set a request may own: status is reset on the main resource, only status through /status. */
function filterForSubresource(
  set: FieldSetNode,
  schema: Schema | undefined,
  subresource: string | undefined,
): FieldSetNode {
  const out: FieldSetNode = { member: set.member, children: new Map(set.children) };
  if (subresource === 'status') {
    for (const pe of out.children.keys()) if (pe !== 'f:status') out.children.delete(pe);
  } else if (subresource === 'scale') {
    const replicas = set.children.get('f:spec')?.children.get('f:replicas');
    out.children = new Map(
      replicas ? [['f:spec', { member: false, children: new Map([['f:replicas', replicas]]) }]] : [],
    );
  } else if (deref(schema)?.properties?.status) {
    out.children.delete('f:status');
  }
  return out;
}
function filterComparison(
  c: Comparison,
  schema: Schema | undefined,
  subresource: string | undefined,
): Comparison {
  return {
    added: stripMeta(filterForSubresource(c.added, schema, subresource)),
    modified: stripMeta(filterForSubresource(c.modified, schema, subresource)),
    removed: stripMeta(filterForSubresource(c.removed, schema, subresource)),
  };
}

function readManaged(obj: unknown): Map<string, Managed> {
  const out = new Map<string, Managed>();
  const list = isObject(obj) && isObject(obj.metadata) ? obj.metadata.managedFields : undefined;
  if (!Array.isArray(list)) return out;
  for (const raw of list) {
    if (!isObject(raw) || typeof raw.manager !== 'string') continue;
    const entry: Managed['entry'] = {
      manager: raw.manager,
      operation: raw.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: typeof raw.apiVersion === 'string' ? raw.apiVersion : '',
      ...(typeof raw.time === 'string' ? { time: raw.time } : {}),
      ...(typeof raw.subresource === 'string' && raw.subresource ? { subresource: raw.subresource } : {}),
    };
    const set = decodeFieldsV1(raw.fieldsV1);
    const id = identity(entry);
    const prev = out.get(id);
    out.set(id, { entry, set: prev ? union(prev.set, set) : set });
  }
  return out;
}

function encodeManaged(managed: Map<string, Managed>): ManagedFieldsEntry[] {
  const entries = [...managed.values()]
    .filter((m) => !isEmptySet(m.set))
    .map(({ entry, set }) => {
      const e: ManagedFieldsEntry = {
        manager: entry.manager,
        operation: entry.operation,
        apiVersion: entry.apiVersion,
        ...(entry.time ? { time: entry.time } : {}),
        fieldsType: 'FieldsV1',
        fieldsV1: encodeFieldsV1(set),
      };
      if (entry.subresource) e.subresource = entry.subresource;
      return e;
    });
  // sortEncodedManagedFields: operation, then time, then manager, apiVersion, subresource.
  const seconds = (t?: string) => (t ? Math.floor(Date.parse(t) / 1000) : 0);
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      seconds(p.time) - seconds(q.time) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const nowRfc3339 = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function withoutManagedFields(obj: unknown): Record<string, unknown> {
  const copy = structuredClone(isObject(obj) ? obj : {}) as Record<string, unknown>;
  if (isObject(copy.metadata)) delete copy.metadata.managedFields;
  return copy;
}

// The Go zero value of a kind, as the apiserver's field manager compares a create against:
// non-pointer struct fields are `{}` and fields without omitempty (the schema's `required`) are
// null, so creating an object does not "add" them — why a creator owns `f:spec: { f:replicas }`
// and `f:containers: { k:{...} }` without `.` markers, but `f:labels: { .: {} }`.
const ZERO_STRUCT_FIELDS: Record<string, string[]> = {
  'io.k8s.api.apps.v1.DeploymentSpec': ['template', 'strategy'],
  'io.k8s.api.apps.v1.StatefulSetSpec': ['template', 'updateStrategy'],
  'io.k8s.api.apps.v1.DaemonSetSpec': ['template', 'updateStrategy'],
  'io.k8s.api.apps.v1.ReplicaSetSpec': ['template'],
  'io.k8s.api.batch.v1.JobSpec': ['template'],
  'io.k8s.api.batch.v1.CronJobSpec': ['jobTemplate'],
  'io.k8s.api.batch.v1.JobTemplateSpec': ['metadata', 'spec'],
  'io.k8s.api.core.v1.PodTemplateSpec': ['metadata', 'spec'],
  'io.k8s.api.core.v1.ServiceStatus': ['loadBalancer'],
};
function zeroObject(schema: Schema | undefined): Record<string, unknown> {
  const root = deref(schema);
  const out: Record<string, unknown> = {};
  for (const f of ['metadata', 'spec', 'status']) {
    const prop = root?.properties?.[f];
    if (prop) out[f] = zeroStruct(prop);
  }
  return out;
}
function zeroStruct(schema: Schema): Record<string, unknown> {
  const name = (schema.$ref ?? schema.allOf?.[0]?.$ref ?? '').replace(/^#\/definitions\//, '');
  // metav1.Time is a struct too: a zero ObjectMeta carries `creationTimestamp: null`.
  const out: Record<string, unknown> =
    name === 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' ? { creationTimestamp: null } : {};
  const def = deref(schema);
  const structs = ZERO_STRUCT_FIELDS[name] ?? [];
  for (const f of def?.required ?? []) if (!structs.includes(f)) out[f] = null;
  for (const f of structs) {
    const prop = def?.properties?.[f];
    if (prop) out[f] = zeroStruct(prop);
  }
  return out;
}

/** Server-side apply of `applied` onto `live` (undefined when the object does not exist yet). */
export function applyServerSide(
  live: object | undefined,
  applied: object,
  opts: ApplyOptions,
): { object: Record<string, unknown>; managedFields: ManagedFieldsEntry[] } {
  const patchMeta = isObject(applied) && isObject(applied.metadata) ? applied.metadata : {};
  if (patchMeta.managedFields !== undefined && patchMeta.managedFields !== null)
    throw new PatchError('metadata.managedFields must be nil', 400);
  const patchVersion = isObject(applied) ? applied.apiVersion : undefined;
  if (patchVersion !== opts.apiVersion) {
    throw new PatchError(
      `Incorrect version specified in apply patch. Specified patch version: ${String(patchVersion ?? '')}, expected: ${opts.apiVersion}`,
      400,
    );
  }
  const schema = schemaFor(opts.apiVersion, opts.kind);
  try {
    return applyWithSchema(live, applied, opts, schema);
  } catch (error) {
    // lastAppliedManager: kubectl moving an object from client-side to server-side apply may take
    // the fields whose live values still are those of its last-applied annotation.
    if (!(error instanceof ApplyConflictError) || opts.manager !== 'kubectl' || !live) throw error;
    const allowed = allowedFromLastApplied(live, opts.apiVersion, schema);
    if (!allowed) throw error;
    const remaining = error.conflicts.filter((c) => !c.path || !hasPath(allowed, c.path));
    if (remaining.length > 0) throw new ApplyConflictError(remaining);
    return applyWithSchema(live, applied, { ...opts, force: true }, schema);
  }
}

function allowedFromLastApplied(
  live: object,
  apiVersion: string,
  schema: Schema | undefined,
): FieldSetNode | undefined {
  const annotations =
    isObject(live) && isObject(live.metadata) && isObject(live.metadata.annotations)
      ? live.metadata.annotations
      : {};
  const raw = annotations[LAST_APPLIED];
  if (typeof raw !== 'string' || raw === '') return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  const c = compare(lastApplied, withoutManagedFields(live), schema);
  return difference(difference(difference(toFieldSet(lastApplied, schema), c.modified), c.added), c.removed);
}

/** applyServerSide with the types from any schema (undefined: deduced), without the request checks. */
export function applyWithSchema(
  live: object | undefined,
  applied: object,
  opts: ApplyOptions,
  schema: Schema | undefined,
): { object: Record<string, unknown>; managedFields: ManagedFieldsEntry[] } {
  let managers = readManaged(live);
  const liveObj = live ? withoutManagedFields(live) : zeroObject(schema);
  const config = withoutManagedFields(applied);
  if (live && managers.size === 0) {
    // skipNonAppliedManager: an object nobody tracked yet is first owned by "before-first-apply".
    const fields = recordUpdateWithSchema(
      undefined,
      liveObj,
      { manager: 'before-first-apply', operation: 'Update', apiVersion: opts.apiVersion, now: opts.now },
      schema,
    );
    managers = readManaged({ metadata: { managedFields: fields } });
  }
  const entry: Managed['entry'] = {
    manager: opts.manager,
    operation: 'Apply',
    apiVersion: opts.apiVersion,
    time: opts.now ?? nowRfc3339(),
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  };
  const id = identity(entry);
  let configSet: FieldSetNode;
  try {
    configSet = stripMeta(filterForSubresource(toFieldSet(config, schema, true), schema, opts.subresource));
  } catch (e) {
    if (!(e instanceof TypedValueError)) throw e;
    const [group, version] = opts.apiVersion.includes('/')
      ? opts.apiVersion.split('/')
      : ['', opts.apiVersion];
    throw new TypedValueError(
      `failed to create typed patch object (${group}/${version}, Kind=${opts.kind}): ${e.message}`,
    );
  }
  let merged = merge(liveObj, config, schema);
  const previous = managers.get(id);
  const lastSet = previous?.set;
  managers.set(id, { entry, set: configSet });
  if (lastSet && !isEmptySet(lastSet)) merged = prune(merged, managers, lastSet, schema);
  // A no-op apply leaves the object, and so the entry's time, as it was (managedFieldsUpdater).
  if (live && previous?.entry.time && deepEqual(dropNulls(liveObj), dropNulls(merged)))
    entry.time = previous.entry.time;
  const c = filterComparison(compare(liveObj, merged, schema), schema, opts.subresource);
  const conflicts: Conflict[] = [];
  const changed = union(c.modified, c.added);
  for (const [otherId, other] of managers) {
    if (otherId === id) continue;
    const clash = intersection(other.set, changed);
    if (!isEmptySet(clash))
      for (const p of members(clash))
        conflicts.push({ manager: printManager(other.entry), field: pathString(p), path: p });
  }
  if (conflicts.length > 0 && !opts.force) throw new ApplyConflictError(conflicts);
  for (const [otherId, other] of managers) {
    if (otherId === id) continue;
    other.set = difference(difference(other.set, changed), c.removed);
  }
  const managedFields = encodeManaged(managers);
  const object = dropNulls(merged) as Record<string, unknown>;
  const metadata = (isObject(object.metadata) ? object.metadata : (object.metadata = {})) as Record<
    string,
    unknown
  >;
  // lastAppliedUpdater: kubectl's server-side apply keeps a client-side apply annotation in step.
  const annotations = isObject(metadata.annotations) ? metadata.annotations : undefined;
  if (opts.manager === 'kubectl' && annotations && typeof annotations[LAST_APPLIED] === 'string') {
    annotations[LAST_APPLIED] = buildLastApplied(applied);
  }
  if (managedFields.length > 0) metadata.managedFields = managedFields;
  else delete metadata.managedFields;
  return { object, managedFields };
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The annotation's value as runtime.Encode writes it: Go's json (sorted keys, HTML escaped) and a newline. */
function buildLastApplied(applied: object): string {
  const copy = structuredClone(applied) as Record<string, unknown>;
  if (isObject(copy.metadata) && isObject(copy.metadata.annotations)) {
    delete copy.metadata.annotations[LAST_APPLIED];
  }
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k])]),
          )
        : v;
  const json = JSON.stringify(sorted(copy))
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e')
    .replaceAll('&', '\\u0026')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
  return `${json}\n`;
}

/** Update.prune: fields the applier owned last time and no longer applies go, unless someone else owns them. */
function prune(
  merged: unknown,
  managers: Map<string, Managed>,
  lastSet: FieldSetNode,
  schema: Schema | undefined,
): unknown {
  const last = ensureNamedFieldsAreMembers(lastSet, schema);
  const pruned = removeItems(merged, last, schema) ?? {};
  let managed = emptySet();
  for (const m of managers.values()) managed = union(managed, m.set);
  const mergedSet = ensureNamedFieldsAreMembers(toFieldSet(merged, schema), schema);
  const prunedSet = ensureNamedFieldsAreMembers(toFieldSet(pruned, schema), schema);
  const keep = union(prunedSet, ensureNamedFieldsAreMembers(managed, schema));
  const toRemove = intersection(difference(mergedSet, keep), last);
  return removeItems(merged, toRemove, schema) ?? {};
}

/**
 * decodeLiveOrNew: a request may reset managedFields (`[]` or `[{}]`) or set them; otherwise, and
 * always through a subresource, the live object's count.
 */
function managedForUpdate(
  before: object | undefined,
  after: object,
  subresource: string | undefined,
): Map<string, Managed> {
  if (subresource) return readManaged(before);
  const incoming = isObject(after) && isObject(after.metadata) ? after.metadata.managedFields : undefined;
  if (Array.isArray(incoming)) {
    const reset =
      incoming.length === 0 ||
      (incoming.length === 1 && isObject(incoming[0]) && Object.keys(incoming[0]).length === 0);
    if (reset) return new Map();
    const fromRequest = readManaged(after);
    if (fromRequest.size > 0) return fromRequest;
  }
  return readManaged(before);
}

/**
 * The managedFields after a create, update or non-apply patch by `opts.manager`: it owns what it
 * added or changed, other managers lose what it changed or removed (the apiserver forces updates).
 */
export function recordUpdate(
  before: object | undefined,
  after: object,
  opts: UpdateOptions,
): ManagedFieldsEntry[] {
  const kind = opts.kind ?? (isObject(after) && typeof after.kind === 'string' ? after.kind : '');
  return recordUpdateWithSchema(before, after, opts, schemaFor(opts.apiVersion, kind));
}

/** recordUpdate with the types from any schema (undefined: deduced). */
export function recordUpdateWithSchema(
  before: object | undefined,
  after: object,
  opts: UpdateOptions,
  schema: Schema | undefined,
): ManagedFieldsEntry[] {
  const apiVersion = opts.apiVersion;
  const managers = managedForUpdate(before, after, opts.subresource);
  // skipNonAppliedManager: an existing object nobody tracks stays untracked until it is applied.
  if (before && managers.size === 0) return [];
  const lhs = before ? withoutManagedFields(before) : zeroObject(schema);
  const rhs = withoutManagedFields(after);
  const c = filterComparison(compare(lhs, rhs, schema), schema, opts.subresource);
  const changed = union(c.modified, c.added);
  const entry: Managed['entry'] = {
    manager: opts.manager,
    operation: 'Update',
    apiVersion,
    time: opts.now ?? nowRfc3339(),
    ...(opts.subresource ? { subresource: opts.subresource } : {}),
  };
  const id = identity(entry);
  for (const [otherId, other] of managers) {
    if (otherId !== id) other.set = difference(difference(other.set, changed), c.removed);
  }
  // managedFieldsUpdater: the operation's own changes join the manager's entry and stamp its time;
  // an update that only removed fields leaves the time as it was.
  const previous = managers.get(id);
  if (!isEmptySet(changed)) {
    managers.set(id, { entry, set: union(difference(previous?.set ?? emptySet(), c.removed), changed) });
  } else if (previous) {
    managers.set(id, { entry: previous.entry, set: difference(previous.set, c.removed) });
  }
  return encodeManaged(managers);
}
