import type {
  FastifyContextConfig,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProviderDefault,
} from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, type PermissionAction, type PermissionResource } from '@slipway/contracts';
import type { AuditTargetId } from './audit-target.js';
import { inOrganisation, inWorkspace, type AccessRule } from './auth/principal.js';
import { withTotalCount } from './database/paging.js';

/** The app a `FastifyPluginAsyncZod` is given. */
type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** Where a resource lives: what its routes' access is scoped to, and the id its service takes first. */
export interface ResourceScope {
  access(permission: `${PermissionResource}:${PermissionAction}`): AccessRule;
  of(request: FastifyRequest): string;
}

/** A resource of the workspace named by x-workspace-id (the access check has set `workspaceId`). */
export const WORKSPACE: ResourceScope = { access: inWorkspace, of: (request) => request.workspaceId! };

/** A resource of the caller's current organisation. */
export const ORGANISATION: ResourceScope = {
  access: inOrganisation,
  of: (request) => request.principal!.organisationId,
};

/** What the standard routes of one resource share; each route adds its summary, schemas and handler. */
export interface Resource {
  /** the collection, e.g. '/api/secrets'; one of its items is `${path}/:id` */
  path: string;
  tags: string[];
  scope: ResourceScope;
  /** the permission catalogue's resource: the routes need its view, create, edit or delete */
  permission: PermissionResource;
  /** the audit trail's name: actions `${audit}.create`, `.update` and `.delete`, on targets of this type */
  audit: string;
  /** the targets' type when it is not `audit` (external pipelines are audited as pipelines) */
  targetType?: string;
}

interface Route<R extends z.ZodType> {
  summary: string;
  response: R;
}

/** A handler of a change to one item: it gets the scope's id, the item's id and the validated body. */
type ItemHandler<B extends z.ZodType, R extends z.ZodType> = (
  scopeId: string,
  id: string,
  body: z.output<B>,
  request: FastifyRequest,
) => Promise<z.input<R>>;

/** A list handler's answer: `{ rows, total }` sets X-Total-Count (total defaults to the rows' count). */
export type Listed<T> = T | { rows: T; total?: number };

/** The rows a list handler answered, with X-Total-Count set when it answered a page. */
const rowsOf = (reply: FastifyReply, listed: Listed<unknown[]>) =>
  Array.isArray(listed) ? listed : withTotalCount(reply, listed.rows, listed.total);

/**
 * The standard routes of a resource — list, get, create (201), update (PUT) and delete (204) —
 * each declaring its access (`scope.access('<permission>:<action>')`) and, for a change, its audit
 * action and target (decisions 007, 027). A route is registered when its method is called, so a
 * file keeps its routes' order and writes its odd routes by hand between them. A handler gets the
 * scope's id (the workspace or the organisation) and the input its route's schemas validated.
 */
export function resourceRoutes(app: ZodApp, resource: Resource) {
  const { tags, scope, permission } = resource;
  const itemPath = `${resource.path}/:id`;
  const type = resource.targetType ?? resource.audit;
  const changing = (action: PermissionAction, verb: string, id: AuditTargetId): FastifyContextConfig => ({
    access: scope.access(`${permission}:${action}`),
    auditAction: `${resource.audit}.${verb}`,
    auditTarget: { type, id },
  });
  const viewing: FastifyContextConfig = { access: scope.access(`${permission}:view`) };
  const route = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    config: FastifyContextConfig,
    schema: FastifySchema & { tags: string[]; summary: string },
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) =>
    // The zod provider cannot type a route whose schemas are type parameters: each method below
    // types its handler's input from the same schemas, which validate it before the handler runs.
    app.withTypeProvider<FastifyTypeProviderDefault>().route({ method, url, config, schema, handler });
  const idOf = (request: FastifyRequest) => (request.params as IdParams).id;

  return {
    /** GET the collection; a handler answering the rows themselves sets no X-Total-Count. */
    list<R extends z.ZodArray, Q extends z.ZodType = z.ZodUndefined>(
      spec: Route<R> & {
        querystring?: Q;
        handler: (scopeId: string, query: z.output<Q>) => Promise<Listed<z.input<R>>>;
      },
    ) {
      const { summary, querystring, response } = spec;
      route(
        'GET',
        resource.path,
        viewing,
        { tags, summary, ...(querystring ? { querystring } : {}), response: { 200: response } },
        async (request, reply) => {
          // without a querystring schema the handler gets undefined, as its type says, not Fastify's {}
          const query = (querystring ? request.query : undefined) as z.output<Q>;
          return rowsOf(reply, await spec.handler(scope.of(request), query));
        },
      );
    },

    /** GET one by id. */
    get<R extends z.ZodType>(
      spec: Route<R> & { handler: (scopeId: string, id: string) => Promise<z.input<R>> },
    ) {
      const { summary, response } = spec;
      route(
        'GET',
        itemPath,
        viewing,
        { tags, summary, params: idParamsSchema, response: { 200: response } },
        async (request) => spec.handler(scope.of(request), idOf(request)),
      );
    },

    /**
     * POST to the collection, answering 201 with what the handler made; `detail` is the audit
     * record's detail, from what was made. The target's id is the answer's `id` unless `targetId`.
     */
    create<B extends z.ZodType, R extends z.ZodType, T extends z.input<R>>(
      spec: Route<R> & {
        body: B;
        targetId?: AuditTargetId;
        handler: (scopeId: string, body: z.output<B>, request: FastifyRequest) => Promise<T>;
        detail?: (created: T) => Record<string, unknown>;
      },
    ) {
      const { summary, body, response } = spec;
      route(
        'POST',
        resource.path,
        changing('create', 'create', spec.targetId ?? 'response.id'),
        { tags, summary, body, response: { 201: response } },
        async (request, reply) => {
          const created = await spec.handler(scope.of(request), request.body as z.output<B>, request);
          if (spec.detail) request.audit.detail = spec.detail(created);
          return reply.code(201).send(created);
        },
      );
    },

    /** PUT one by id (at `path` when it is not `${path}/:id`), answering what the handler answers. */
    update<B extends z.ZodType, R extends z.ZodType>(
      spec: Route<R> & {
        path?: string;
        body: B;
        handler: ItemHandler<B, R>;
      },
    ) {
      const { summary, body, response } = spec;
      route(
        'PUT',
        spec.path ?? itemPath,
        changing('edit', 'update', 'params.id'),
        { tags, summary, params: idParamsSchema, body, response: { 200: response } },
        async (request) =>
          spec.handler(scope.of(request), idOf(request), request.body as z.output<B>, request),
      );
    },

    /** DELETE one by id, answering 204; `auditAction` when the trail names it other than `.delete`. */
    remove(spec: {
      summary: string;
      auditAction?: string;
      handler: (scopeId: string, id: string) => Promise<unknown>;
    }) {
      const config = changing('delete', 'delete', 'params.id');
      route(
        'DELETE',
        itemPath,
        spec.auditAction ? { ...config, auditAction: spec.auditAction } : config,
        { tags, summary: spec.summary, params: idParamsSchema, response: { 204: z.null() } },
        async (request, reply) => {
          await spec.handler(scope.of(request), idOf(request));
          return reply.code(204).send(null);
        },
      );
    },

    /**
     * GET something of one item, `${path}/:id/${name}` (`name` may add params, e.g.
     * 'versions/:version', with `params` their schema). The handler gets the params and the query,
     * and the reply to send text itself; a page of rows for an array response sets X-Total-Count.
     */
    view<
      R extends z.ZodType | undefined = undefined,
      Q extends z.ZodType = z.ZodUndefined,
      P extends z.ZodType = typeof idParamsSchema,
    >(spec: {
      name: string;
      summary: string;
      params?: P;
      querystring?: Q;
      response?: R;
      produces?: string[];
      handler: (
        scopeId: string,
        params: z.output<P>,
        query: z.output<Q>,
        reply: FastifyReply,
      ) => Promise<
        R extends z.ZodArray ? Listed<z.input<R>> : R extends z.ZodType ? z.input<R> : FastifyReply
      >;
    }) {
      const { summary, params = idParamsSchema, querystring, response, produces } = spec;
      route(
        'GET',
        `${itemPath}/${spec.name}`,
        viewing,
        {
          tags,
          summary,
          params,
          ...(querystring ? { querystring } : {}),
          ...(response ? { response: { 200: response } } : {}),
          ...(produces ? { produces } : {}),
        },
        async (request, reply) => {
          const query = (querystring ? request.query : undefined) as z.output<Q>;
          const answer = await spec.handler(scope.of(request), request.params as z.output<P>, query, reply);
          return response instanceof z.ZodArray ? rowsOf(reply, answer as Listed<unknown[]>) : answer;
        },
      );
    },

    /**
     * An action on one item: POST (or `method`) `${path}/:id/${name}`, needing `permission` (edit
     * unless said) and audited as `${audit}.${name}` on the item unless `auditAction` and
     * `targetId` say otherwise. It answers 200 with what the handler answers, or `status`.
     */
    action<R extends z.ZodType, B extends z.ZodType = z.ZodUndefined>(
      spec: Route<R> & {
        name: string;
        method?: 'POST' | 'PUT';
        permission?: PermissionAction;
        auditAction?: string;
        targetId?: AuditTargetId;
        status?: 200 | 201;
        body?: B;
        handler: ItemHandler<B, R>;
      },
    ) {
      const { summary, body, response, status = 200 } = spec;
      const config = changing(spec.permission ?? 'edit', spec.name, spec.targetId ?? 'params.id');
      route(
        spec.method ?? 'POST',
        `${itemPath}/${spec.name}`,
        spec.auditAction ? { ...config, auditAction: spec.auditAction } : config,
        {
          tags,
          summary,
          params: idParamsSchema,
          ...(body ? { body } : {}),
          response: { [status]: response },
        },
        async (request, reply) => {
          const answer = await spec.handler(
            scope.of(request),
            idOf(request),
            request.body as z.output<B>,
            request,
          );
          return reply.code(status).send(answer);
        },
      );
    },
  };
}

type IdParams = z.output<typeof idParamsSchema>;
