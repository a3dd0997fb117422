import { randomBytes } from 'node:crypto';
import type { ApiContext, FieldValidation, RequestInfo } from './context.js';
import { apiVersionOf, hasStatusSubresource, qualified } from './kinds.js';
import { allocateService } from './services.js';
import { validateWriteOptions } from './write-options.js';
import { HttpError, clone, deepMerge, isObject, type KindInfo, type KubeObject } from './types.js';

export interface VerbResult {
  code: number;
  object: unknown;
}

/** The manager the apiserver records when a request names none: the User-Agent up to its first '/'. */
export const managerOf = (info: RequestInfo): string =>
  info.query.fieldManager ||
  info.userAgent
    .split('/')[0]!
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 128) ||
  'unknown';

export const isDryRun = (query: Record<string, string>): boolean => query.dryRun === 'All';

export function notFound(kind: KindInfo, name: string): HttpError {
  return new HttpError(404, 'NotFound', `${qualified(kind)} "${name}" not found`, {
    name,
    ...(kind.group ? { group: kind.group } : {}),
    kind: kind.plural,
  });
}

export function forbidden(kind: KindInfo, name: string, reason: string, causes?: unknown[]): HttpError {
  return new HttpError(
    403,
    'Forbidden',
    name
      ? `${qualified(kind)} "${name}" is forbidden: ${reason}`
      : `${qualified(kind)} is forbidden: ${reason}`,
    {
      ...(name ? { name } : {}),
      ...(kind.group ? { group: kind.group } : {}),
      kind: kind.plural,
      ...(causes ? { causes } : {}),
    },
  );
}

export function invalid(
  kind: KindInfo,
  name: string,
  causes: { field: string; message: string; reason: string }[],
): HttpError {
  const text = causes.map((c) => `${c.field}: ${c.message}`);
  return new HttpError(
    422,
    'Invalid',
    `${kind.group ? `${kind.kind}.${kind.group}` : kind.kind} "${name}" is invalid: ${text.length === 1 ? text[0] : `[${text.join(', ')}]`}`,
    {
      name,
      ...(kind.group ? { group: kind.group } : {}),
      kind: kind.kind,
      causes: causes.map((c) => ({ reason: c.reason, message: c.message, field: c.field })),
    },
  );
}

export function parseObject(parsed: unknown): KubeObject {
  if (!isObject(parsed)) throw new HttpError(400, 'BadRequest', 'the request body must be an object');
  return parsed as KubeObject;
}

/** The checks the apiserver makes on every write before admission. */
export function checkIdentity(
  kind: KindInfo,
  object: KubeObject,
  namespace: string | undefined,
  name?: string,
): void {
  if (object.kind !== kind.kind || object.apiVersion !== apiVersionOf(kind)) {
    throw new HttpError(
      400,
      'BadRequest',
      `the API version in the data (${object.apiVersion}) does not match the expected API version (${apiVersionOf(kind)})`,
    );
  }
  if (!isObject(object.metadata)) (object as Record<string, unknown>).metadata = {};
  const meta = object.metadata;
  if (!name && !meta.name && typeof meta.generateName === 'string' && meta.generateName) {
    meta.name =
      meta.generateName +
      randomBytes(4)
        .toString('hex')
        .replace(/[0-9]/g, (d) => 'bcdfghjklm'[Number(d)]!)
        .slice(0, 5);
  }
  if (typeof meta.name !== 'string' || !meta.name) {
    throw invalid(kind, '', [
      {
        field: 'metadata.name',
        reason: 'FieldValueRequired',
        message: 'Required value: name or generateName is required',
      },
    ]);
  }
  if (name && meta.name !== name) {
    throw new HttpError(
      400,
      'BadRequest',
      `the name of the object (${meta.name}) does not match the name on the URL (${name})`,
    );
  }
  if (kind.namespaced && meta.namespace && namespace && meta.namespace !== namespace) {
    throw new HttpError(
      400,
      'BadRequest',
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(meta.name) || meta.name.length > 253) {
    throw invalid(kind, meta.name, [
      {
        field: 'metadata.name',
        reason: 'FieldValueInvalid',
        message: `Invalid value: "${meta.name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      },
    ]);
  }
}

/** Namespace lifecycle admission: the namespace must exist and not be terminating. */
export function admitNamespace(
  ctx: ApiContext,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
): void {
  if (!kind.namespaced) return;
  if (!namespace) throw new HttpError(400, 'BadRequest', 'the namespace of the object is required');
  const ns = ctx.store.lookup(ctx.kinds.of('v1', 'Namespace'), undefined, namespace);
  if (!ns)
    throw new HttpError(404, 'NotFound', `namespaces "${namespace}" not found`, {
      name: namespace,
      kind: 'namespaces',
    });
  if (ns.metadata.deletionTimestamp) {
    throw forbidden(
      kind,
      name,
      `unable to create new content in namespace ${namespace} because it is being terminated`,
      [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${namespace} is being terminated`,
          field: 'metadata.namespace',
        },
      ],
    );
  }
}

const fieldValidation = (info: RequestInfo): FieldValidation =>
  (info.query.fieldValidation || 'Warn') as FieldValidation;

/** Defaulting, then validation against the schema (fieldValidation decides unknown fields). */
export function admit(
  ctx: ApiContext,
  kind: KindInfo,
  object: KubeObject,
  info: RequestInfo,
  existing?: KubeObject,
): void {
  const validation = fieldValidation(info);
  // Decoding comes first: wrong JSON types are a 400, unknown fields are refused (Strict),
  // warned about (Warn) or dropped silently (Ignore); the stored object never has them.
  const decoded = ctx.schema.validate(object, validation);
  const decodeError = decoded.errors.find((e) => e.reason === 'BadRequest');
  if (decodeError) throw new HttpError(400, 'BadRequest', decodeError.message);
  const unknown = decoded.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`);
  if (unknown.length > 0 && validation === 'Strict') {
    throw new HttpError(400, 'BadRequest', `strict decoding error: ${unknown.join(', ')}`);
  }
  ctx.schema.prune(object);
  ctx.schema.defaults(object);
  if (kind.kind === 'Service' && kind.group === '') allocateService(ctx.store, object, existing);
  const { errors } = ctx.schema.validate(object, 'Ignore');
  if (errors.length > 0) throw invalid(kind, object.metadata.name, errors);
  if (validation === 'Warn') info.warnings.push(...unknown);
}

const sameRv = (kind: KindInfo, name: string, object: KubeObject, existing: KubeObject) => {
  const rv = object.metadata.resourceVersion;
  if (rv && rv !== existing.metadata.resourceVersion) {
    throw new HttpError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      { name, ...(kind.group ? { group: kind.group } : {}), kind: kind.plural },
    );
  }
};

/** Stores (or, under dry-run, previews) a write; an object whose last finalizer went while deleting goes. */
/** Empty maps and lists the Go types omit (`omitempty`) are not stored: an emptied labels map goes. */
export function omitEmpty(object: KubeObject): void {
  const empty = (v: unknown) =>
    Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0;
  for (const f of ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields']) {
    if (empty(object.metadata[f])) delete object.metadata[f];
  }
  for (const f of ['data', 'stringData', 'binaryData']) if (empty(object[f])) delete object[f];
}

export function commit(ctx: ApiContext, kind: KindInfo, object: KubeObject, info: RequestInfo): KubeObject {
  omitEmpty(object);
  if (isDryRun(info.query)) return ctx.store.preview(kind, object);
  const stored = ctx.store.write(kind, object);
  ctx.reconcile();
  return stored;
}

export function create(
  ctx: ApiContext,
  kind: KindInfo,
  namespace: string | undefined,
  body: unknown,
  info: RequestInfo,
): VerbResult {
  validateWriteOptions('CreateOptions', info.query);
  const object = parseObject(body);
  checkIdentity(kind, object, namespace);
  admitNamespace(ctx, kind, namespace, object.metadata.name);
  if (kind.namespaced) object.metadata.namespace = namespace;
  else delete object.metadata.namespace;
  if (ctx.store.lookup(kind, namespace, object.metadata.name)) {
    throw new HttpError(409, 'AlreadyExists', `${qualified(kind)} "${object.metadata.name}" already exists`, {
      name: object.metadata.name,
      ...(kind.group ? { group: kind.group } : {}),
      kind: kind.plural,
    });
  }
  if (kind.kind === 'Pod' && kind.group === '')
    object.status = { phase: 'Pending', qosClass: qosClass(object) };
  for (const f of ['uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'generation'])
    delete object.metadata[f];
  admit(ctx, kind, object, info);
  object.metadata.managedFields = ctx.schema.recordUpdate(undefined, object, {
    manager: managerOf(info),
    apiVersion: object.apiVersion,
  });
  return { code: 201, object: commit(ctx, kind, object, info) };
}

/** The object a write to a subresource or the main resource leads to, with the status rules. */
function merged(kind: KindInfo, existing: KubeObject, next: KubeObject, sub: string | undefined): KubeObject {
  if (sub === 'status') {
    const out = clone(existing);
    if (next.status === undefined) delete out.status;
    else out.status = clone(next.status);
    return out;
  }
  const out = clone(next);
  // System fields stay the server's.
  for (const f of [
    'uid',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
  ]) {
    if (existing.metadata[f] === undefined) delete out.metadata[f];
    else out.metadata[f] = existing.metadata[f];
  }
  if (hasStatusSubresource(kind)) {
    if (existing.status === undefined) delete out.status;
    else out.status = clone(existing.status);
  }
  if (existing.metadata.deletionTimestamp) {
    // Finalizers may only be removed while an object is being deleted.
    const before = (existing.metadata.finalizers as string[] | undefined) ?? [];
    const after = (out.metadata.finalizers as string[] | undefined) ?? [];
    if (after.some((f) => !before.includes(f))) {
      throw new HttpError(
        422,
        'Invalid',
        `${kind.kind} "${existing.metadata.name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"${after.filter((f) => !before.includes(f)).join('", "')}"}`,
      );
    }
  }
  return out;
}

export function update(
  ctx: ApiContext,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  body: unknown,
  info: RequestInfo,
  sub?: string,
): VerbResult {
  validateWriteOptions('UpdateOptions', info.query);
  const existing = ctx.store.lookup(kind, namespace, name);
  if (!existing) throw notFound(kind, name);
  const object = parseObject(body);
  checkIdentity(kind, object, namespace, name);
  sameRv(kind, name, object, existing);
  if (kind.namespaced) object.metadata.namespace = namespace;
  object.metadata.resourceVersion = existing.metadata.resourceVersion;
  const next = merged(kind, existing, object, sub);
  admit(ctx, kind, next, info, existing);
  next.metadata.managedFields = ctx.schema.recordUpdate(existing, next, {
    manager: managerOf(info),
    apiVersion: next.apiVersion,
    ...(sub ? { subresource: sub } : {}),
  });
  return { code: 200, object: commit(ctx, kind, next, info) };
}

const PATCH_TYPES =
  'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json';

export function patch(
  ctx: ApiContext,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  contentType: string,
  body: unknown,
  info: RequestInfo,
  sub?: string,
): VerbResult {
  const type = contentType.split(';')[0]!.trim();
  validateWriteOptions('PatchOptions', info.query, type === 'application/apply-patch+yaml');
  const existing = ctx.store.lookup(kind, namespace, name);
  if (type === 'application/apply-patch+yaml') {
    const applied = parseObject(body);
    checkIdentity(kind, applied, namespace, name);
    if (!existing) admitNamespace(ctx, kind, namespace, name);
    if (existing) sameRv(kind, name, applied, existing);
    if (kind.namespaced) applied.metadata.namespace = namespace;
    const force = info.query.force === 'true';
    let result = ctx.schema.apply(existing && clone(existing), applied, {
      manager: info.query.fieldManager!,
      force,
      apiVersion: applied.apiVersion,
      kind: applied.kind,
    });
    // The object's identity is never the applier's to drop.
    result = { ...result, apiVersion: applied.apiVersion, kind: applied.kind };
    result.metadata = { ...result.metadata, name, ...(kind.namespaced ? { namespace } : {}) };
    if (existing) {
      const managed = result.metadata.managedFields;
      result = merged(kind, existing, result, sub);
      result.metadata.managedFields = managed;
    }
    admit(ctx, kind, result, info, existing);
    return { code: existing ? 200 : 201, object: commit(ctx, kind, result, info) };
  }
  if (!existing) throw notFound(kind, name);
  let next: KubeObject;
  if (type === 'application/merge-patch+json') {
    next = deepMerge(existing, body) as KubeObject;
  } else if (type === 'application/strategic-merge-patch+json') {
    if (!isBuiltInKind(kind)) {
      throw new HttpError(
        415,
        'UnsupportedMediaType',
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      );
    }
    next = ctx.schema.strategicMerge(clone(existing), body, existing.apiVersion, existing.kind);
  } else if (type === 'application/json-patch+json') {
    next = ctx.schema.jsonPatch(clone(existing), body);
  } else {
    throw new HttpError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES}`,
    );
  }
  if (!isObject(next.metadata))
    throw new HttpError(422, 'Invalid', `${kind.kind} "${name}" is invalid: metadata: Required value`);
  checkIdentity(kind, next, namespace, name);
  sameRv(kind, name, next, existing);
  next.metadata.resourceVersion = existing.metadata.resourceVersion;
  next = merged(kind, existing, next, sub);
  admit(ctx, kind, next, info, existing);
  next.metadata.managedFields = ctx.schema.recordUpdate(existing, next, {
    manager: managerOf(info),
    apiVersion: next.apiVersion,
    ...(sub ? { subresource: sub } : {}),
  });
  return { code: 200, object: commit(ctx, kind, next, info) };
}

const isBuiltInKind = (kind: KindInfo): boolean =>
  !kind.group.includes('.') || kind.group.endsWith('.k8s.io');

/** The pod's QoS class as the apiserver computes it on create. */
function qosClass(pod: KubeObject): string {
  const spec = isObject(pod.spec) ? pod.spec : {};
  const containers = [
    ...((spec.containers as Record<string, unknown>[] | undefined) ?? []),
    ...((spec.initContainers as Record<string, unknown>[] | undefined) ?? []),
  ];
  const resources = containers.map((c) => (isObject(c.resources) ? c.resources : {}));
  const of = (r: Record<string, unknown>, k: string) =>
    isObject(r[k]) ? (r[k] as Record<string, unknown>) : {};
  if (
    resources.every(
      (r) => Object.keys(of(r, 'requests')).length === 0 && Object.keys(of(r, 'limits')).length === 0,
    )
  ) {
    return 'BestEffort';
  }
  const guaranteed = resources.every((r) =>
    ['cpu', 'memory'].every((res) => {
      const limit = of(r, 'limits')[res];
      const request = of(r, 'requests')[res] ?? limit;
      return limit !== undefined && String(limit) === String(request);
    }),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
