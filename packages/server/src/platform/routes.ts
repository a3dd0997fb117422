import type { FastifyReply, FastifyRequest, FastifySchema, FastifyTypeProviderDefault } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuditTarget } from './audit-target.js';
import type { AccessRule } from './auth/principal.js';
import { withTotalCount } from './database/paging.js';

/** The app a `FastifyPluginAsyncZod` is given. */
type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

type Input<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A route's request, its params, query and body typed by the schemas that validated them. */
export type RouteRequest<P, Q, B> = FastifyRequest & { params: Input<P>; query: Input<Q>; body: Input<B> };

/** What a handler may answer: the response, a `{ rows, total }` page of a list, or the reply it sent. */
type Answer<R> =
  | z.input<R>
  | FastifyReply
  | (R extends z.ZodArray ? { rows: z.input<R>; total?: number } : never)
  | (R extends z.ZodType ? never : unknown);

/** One route: who may call it, what the audit trail records of it, its schemas and its handler. */
export interface RouteSpec<P, Q, B, R> {
  summary: string;
  access: AccessRule;
  /** the audit trail's name for what the route does, e.g. 'auth.login' (decision 027) */
  auditAction?: string;
  auditTarget?: AuditTarget;
  /** the tags when they are not the builder's */
  tags?: string[];
  params?: P;
  querystring?: Q;
  body?: B;
  /** the answer's schema (none for a 204 or a route that sends text itself), or one per status */
  response?: R | Record<number, z.ZodType>;
  /** 201 sends what the handler answers with that status; 204 sends nothing whatever it answers */
  status?: 200 | 201 | 204;
  produces?: string[];
  handler: (request: RouteRequest<P, Q, B>, reply: FastifyReply) => Answer<R> | Promise<Answer<R>>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Routes that are not a resource's standard five (for those see resource-routes.ts): each one
 * declares its access and audit in its spec, as config (decisions 007, 027), and answers with
 * `status`. A list route's handler may answer `{ rows, total }`, which sets X-Total-Count.
 */
export function routes(app: ZodApp, tags: string[]) {
  const add =
    (method: Method) =>
    <
      P extends z.ZodType | undefined = undefined,
      Q extends z.ZodType | undefined = undefined,
      B extends z.ZodType | undefined = undefined,
      R extends z.ZodType | undefined = undefined,
    >(
      url: string,
      spec: RouteSpec<P, Q, B, R>,
    ) => {
      const { access, auditAction, auditTarget, params, querystring, body, response, produces } = spec;
      const status = spec.status ?? 200;
      const schema: FastifySchema = {
        tags: spec.tags ?? tags,
        summary: spec.summary,
        ...(params ? { params } : {}),
        ...(querystring ? { querystring } : {}),
        ...(body ? { body } : {}),
        ...(produces ? { produces } : {}),
      };
      if (status === 204) schema.response = { 204: z.null() };
      else if (response instanceof z.ZodType) schema.response = { [status]: response };
      else if (response) schema.response = response;
      // The zod provider cannot type a route whose schemas are type parameters: RouteRequest types
      // the handler's input from the same schemas, which validate it before the handler runs.
      app.withTypeProvider<FastifyTypeProviderDefault>().route({
        method,
        url,
        config: { access, ...(auditAction ? { auditAction } : {}), ...(auditTarget ? { auditTarget } : {}) },
        schema,
        handler: async (request, reply) => {
          const answer = await spec.handler(request as RouteRequest<P, Q, B>, reply);
          if (status === 204) return reply.code(204).send(null);
          if (status !== 200) return reply.code(status).send(answer);
          if (response instanceof z.ZodArray && answer !== reply && !Array.isArray(answer)) {
            const page = answer as { rows: unknown[]; total?: number };
            return withTotalCount(reply, page.rows, page.total);
          }
          return answer;
        },
      });
    };
  return { get: add('GET'), post: add('POST'), put: add('PUT'), delete: add('DELETE') };
}
