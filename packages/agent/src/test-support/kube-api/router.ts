import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext, RequestInfo } from './context.js';
import { AGGREGATED, aggregatedDiscovery, wantsAggregated } from './discovery.js';
import { notFoundResource, sendText } from './http.js';
import { SCALABLE, isBuiltIn, isReview } from './kinds.js';
import { deleteObject, type Lifecycle } from './lifecycle.js';
import { review } from './reviews.js';
import { getScale, updateScale } from './scale.js';
import { HttpError, type KindInfo, type KubeObject } from './types.js';
import { create, notFound, patch, update, type VerbResult } from './verbs.js';
import type { Watches } from './watch.js';

export interface RouteRequest {
  method: string;
  pathname: string;
  contentType: string;
  body: unknown;
  info: RequestInfo;
  req: IncomingMessage;
  res: ServerResponse;
}

export interface RouteDeps {
  ctx: ApiContext;
  lifecycle: Lifecycle;
  watches: Watches;
  gitVersion: string;
  openapi?: (pathname: string, accept: string) => unknown;
  /** how watch events' objects are encoded for this request (Table rows when asked for) */
  watchEncoder?: (
    kind: KindInfo,
    info: RequestInfo,
  ) => ((object: KubeObject, first: boolean) => unknown) | undefined;
}

/** A result to encode (JSON, Table or protobuf), or undefined when the route wrote the response itself. */
export type RouteResult =
  (VerbResult & { kind?: KindInfo; list?: boolean; contentType?: string }) | undefined;

const methodNotAllowed = () =>
  new HttpError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');

export function route(deps: RouteDeps, r: RouteRequest): RouteResult {
  const { ctx } = deps;
  const { method, pathname, info, res } = r;
  const query = info.query;
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (pathname === '/version') {
    const gitVersion = deps.gitVersion;
    const [major, minor] = gitVersion.replace(/^v/, '').split('.');
    return {
      code: 200,
      object: {
        major,
        minor,
        gitVersion,
        gitCommit: '',
        gitTreeState: 'clean',
        goVersion: 'go1.22.8',
        compiler: 'gc',
        platform: 'linux/amd64',
      },
    };
  }
  if (pathname === '/healthz' || pathname === '/readyz' || pathname === '/livez') {
    sendText(res, 200, 'ok');
    return undefined;
  }
  if (segments[0] === 'openapi' && deps.openapi) {
    const doc = deps.openapi(pathname, info.accept);
    if (doc === undefined) throw notFoundResource();
    return { code: 200, object: doc };
  }
  if (
    (segments[0] === 'api' || segments[0] === 'apis') &&
    segments.length === 1 &&
    wantsAggregated(info.accept)
  ) {
    return {
      code: 200,
      object: aggregatedDiscovery(ctx.kinds, segments[0] === 'api'),
      contentType: AGGREGATED,
    };
  }
  if (segments[0] === 'api' && segments.length === 1) {
    return {
      code: 200,
      object: {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
      },
    };
  }
  if (segments[0] === 'apis' && segments.length === 1) return { code: 200, object: ctx.kinds.groupList() };
  let group: string;
  let version: string;
  let rest: string[];
  if (segments[0] === 'api' && segments.length >= 2) {
    group = '';
    version = segments[1]!;
    rest = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 2) {
    group = segments[1]!;
    if (segments.length === 2) {
      const g = ctx.kinds.groupList().groups.find((x) => x.name === group);
      if (!g) throw notFoundResource();
      return { code: 200, object: { kind: 'APIGroup', apiVersion: 'v1', ...g } };
    }
    version = segments[2]!;
    rest = segments.slice(3);
  } else {
    throw notFoundResource();
  }
  if (ctx.kinds.inVersion(group, version).length === 0) throw notFoundResource();
  if (rest.length === 0) {
    if (method !== 'GET') throw methodNotAllowed();
    return { code: 200, object: ctx.kinds.resourceList(group, version) };
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, sub] = rest;
  const kind = ctx.kinds.inVersion(group, version).find((k) => k.plural === plural);
  if (!kind || rest.length > 3) throw notFoundResource();
  if (!kind.namespaced) namespace = undefined;
  if (isReview(kind)) {
    if (method !== 'POST' || name) throw methodNotAllowed();
    return review(ctx, kind, r.body);
  }
  if (sub === 'log' && kind.kind === 'Pod' && kind.group === '' && method === 'GET') {
    ctx.logs.serve(ctx.store.lookup(kind, namespace, name!), namespace!, name!, query, res);
    return undefined;
  }
  if (sub === 'scale' && SCALABLE.has(kind.kind) && isBuiltIn(kind) && name) {
    if (method === 'GET') return { code: 200, object: getScale(ctx, kind, namespace, name) };
    if (method === 'PUT' || method === 'PATCH')
      return updateScale(ctx, kind, namespace, name, method, r.contentType, r.body, info);
    throw methodNotAllowed();
  }
  if (sub && sub !== 'status') throw notFoundResource();
  if (sub === 'status' && !['GET', 'PUT', 'PATCH'].includes(method)) throw methodNotAllowed();
  if (!name) {
    if (method === 'GET') {
      if (query.watch === '1' || query.watch === 'true') {
        deps.watches.watch(kind, namespace, query, res, deps.watchEncoder?.(kind, info));
        return undefined;
      }
      return { code: 200, object: deps.watches.list(kind, namespace, query), kind, list: true };
    }
    if (method === 'POST') return { ...create(ctx, kind, namespace, r.body, info), kind };
    if (method === 'DELETE') return deleteCollection(deps, kind, namespace, r.body, info);
    throw methodNotAllowed();
  }
  switch (method) {
    case 'GET': {
      const existing = ctx.store.lookup(kind, namespace, name);
      if (!existing) throw notFound(kind, name);
      return { code: 200, object: existing, kind };
    }
    case 'PUT':
      return { ...update(ctx, kind, namespace, name, r.body, info, sub), kind };
    case 'PATCH':
      return { ...patch(ctx, kind, namespace, name, r.contentType, r.body, info, sub), kind };
    case 'DELETE':
      if (sub) throw methodNotAllowed();
      return { ...deleteObject(ctx, deps.lifecycle, kind, namespace, name, r.body, info), kind };
    default:
      throw methodNotAllowed();
  }
}

function deleteCollection(
  deps: RouteDeps,
  kind: KindInfo,
  namespace: string | undefined,
  body: unknown,
  info: RequestInfo,
): RouteResult {
  const list = deps.ctx.store.selected(kind, namespace, info.query.labelSelector, info.query.fieldSelector);
  for (const o of list)
    deleteObject(deps.ctx, deps.lifecycle, kind, o.metadata.namespace, o.metadata.name, body, info);
  const items = list.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
  return {
    code: 200,
    object: {
      kind: `${kind.kind}List`,
      apiVersion: `${kind.group ? `${kind.group}/` : ''}${kind.version}`,
      metadata: { resourceVersion: String(deps.ctx.store.resourceVersion) },
      items,
    },
    kind,
    list: true,
  };
}
