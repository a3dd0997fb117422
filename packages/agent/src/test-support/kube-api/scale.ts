import type { ApiContext, RequestInfo } from './context.js';
import { qualified } from './kinds.js';
import { HttpError, clone, deepMerge, isObject, type KindInfo, type KubeObject } from './types.js';
import { commit, managerOf, notFound, type VerbResult } from './verbs.js';

/** The label selector of a workload as the Scale status states it: `a=b,c=d`, sorted. */
function selectorText(object: KubeObject): string {
  const selector = isObject(object.spec) && isObject(object.spec.selector) ? object.spec.selector : {};
  const parts = Object.entries((selector.matchLabels as Record<string, string> | undefined) ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  for (const e of (selector.matchExpressions as
    { key: string; operator: string; values?: string[] }[] | undefined) ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.join(',');
}

function toScale(object: KubeObject): KubeObject {
  const spec = isObject(object.spec) ? object.spec : {};
  const status = isObject(object.status) ? object.status : {};
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: object.metadata.name,
      namespace: object.metadata.namespace!,
      uid: object.metadata.uid,
      resourceVersion: object.metadata.resourceVersion,
      creationTimestamp: object.metadata.creationTimestamp,
    },
    spec: { replicas: (spec.replicas as number | undefined) ?? 1 },
    status: { replicas: (status.replicas as number | undefined) ?? 0, selector: selectorText(object) },
  };
}

export function getScale(
  ctx: ApiContext,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
): KubeObject {
  const existing = ctx.store.lookup(kind, namespace, name);
  if (!existing) throw notFound(kind, name);
  return toScale(existing);
}

/** PUT or PATCH of `/scale`: only spec.replicas reaches the workload. */
export function updateScale(
  ctx: ApiContext,
  kind: KindInfo,
  namespace: string | undefined,
  name: string,
  method: string,
  contentType: string,
  body: unknown,
  info: RequestInfo,
): VerbResult {
  const existing = ctx.store.lookup(kind, namespace, name);
  if (!existing) throw notFound(kind, name);
  const current = toScale(existing);
  let next: KubeObject;
  const type = contentType.split(';')[0]!.trim();
  if (method === 'PUT') next = body as KubeObject;
  else if (type === 'application/json-patch+json') next = ctx.schema.jsonPatch(clone(current), body);
  else if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') {
    next = deepMerge(current, body) as KubeObject;
  } else {
    throw new HttpError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`,
    );
  }
  if (!isObject(next) || next.kind !== 'Scale') {
    throw new HttpError(
      400,
      'BadRequest',
      `the API version in the data (${String((next as KubeObject)?.apiVersion)}) does not match the expected API version (autoscaling/v1)`,
    );
  }
  const rv = isObject(next.metadata) ? next.metadata.resourceVersion : undefined;
  if (rv && rv !== existing.metadata.resourceVersion) {
    throw new HttpError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(kind)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    );
  }
  const replicas = isObject(next.spec) ? next.spec.replicas : undefined;
  if (typeof replicas !== 'number' || replicas < 0 || !Number.isInteger(replicas)) {
    throw new HttpError(
      422,
      'Invalid',
      `Scale.autoscaling "${name}" is invalid: spec.replicas: Invalid value: ${JSON.stringify(replicas ?? null)}: must be greater than or equal to 0`,
    );
  }
  const updated = clone(existing);
  updated.spec = { ...(isObject(updated.spec) ? updated.spec : {}), replicas };
  updated.metadata.managedFields = ctx.schema.recordUpdate(existing, updated, {
    manager: managerOf(info),
    apiVersion: updated.apiVersion,
    subresource: 'scale',
  });
  return { code: 200, object: toScale(commit(ctx, kind, updated, info)) };
}
