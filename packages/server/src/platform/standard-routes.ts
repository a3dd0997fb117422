import type { z } from 'zod';
import type { AuditTargetId } from './audit-target.js';
import { actorIdOf } from './auth/principal.js';
import type { Listed, resourceRoutes } from './resource-routes.js';

/** What `resourceRoutes` answers: the builder of one resource's routes. */
export type ResourceRoutes = ReturnType<typeof resourceRoutes>;

/** The schemas of a resource's standard routes; without `update` it has no PUT. */
export interface StandardSchemas {
  /** the list's querystring, when it takes one */
  query?: z.ZodType;
  list: z.ZodArray;
  /** one item, as get and update answer it (and create, unless `created`) */
  item: z.ZodType;
  /** create's answer when it is not `item` */
  created?: z.ZodType;
  create: z.ZodType;
  update?: z.ZodType;
}

type Input<T> = T extends z.ZodType ? z.output<T> : undefined;
type Created<S extends StandardSchemas> = z.input<S['created'] extends z.ZodType ? S['created'] : S['item']>;

/**
 * The service behind the standard routes: each method takes the scope's id first (the workspace
 * or the organisation); a create or an update also gets the id of whoever asked for it.
 */
export type StandardService<S extends StandardSchemas> = {
  list(scopeId: string, query: Input<S['query']>): Promise<Listed<z.input<S['list']>>>;
  get(scopeId: string, id: string): Promise<z.input<S['item']>>;
  create(scopeId: string, body: z.output<S['create']>, actorId: string | null): Promise<Created<S>>;
  remove(scopeId: string, id: string): Promise<unknown>;
} & (S['update'] extends z.ZodType
  ? {
      update(
        scopeId: string,
        id: string,
        body: z.output<S['update']>,
        actorId: string | null,
      ): Promise<z.input<S['item']>>;
    }
  : unknown);

/** A resource's standard routes: their schemas and summaries, and what their audit records add. */
export interface StandardSpec<S extends StandardSchemas> {
  schemas: S;
  summaries: { list: string; get: string; create: string; update?: string; remove: string };
  /** the created item's audit target when it is not the answer's `id` */
  createdId?: AuditTargetId;
  /** the create's audit detail, from what was made */
  createDetail?: (created: Created<S>) => Record<string, unknown>;
  /** the update's audit detail, from the change asked for */
  updateDetail?: (body: Input<S['update']>) => Record<string, unknown>;
}

/**
 * Declares list, get, create, update (when there is an update schema) and delete on `routes`,
 * each handled by the service's method of that name.
 */
export function standardRoutes<S extends StandardSchemas>(
  routes: ResourceRoutes,
  service: NoInfer<StandardService<S>>,
  spec: StandardSpec<S>,
): void {
  const { schemas, summaries } = spec;
  // The builder types each handler from its schemas; here they are S's, which the signature ties
  // to the service's methods, so the calls go through a service typed loosely.
  const loose = service as unknown as LooseService;
  routes.list({
    summary: summaries.list,
    querystring: schemas.query,
    response: schemas.list,
    handler: (scopeId, query) => loose.list(scopeId, query),
  });
  routes.get({
    summary: summaries.get,
    response: schemas.item,
    handler: (scopeId, id) => loose.get(scopeId, id),
  });
  routes.create({
    summary: summaries.create,
    body: schemas.create,
    response: schemas.created ?? schemas.item,
    targetId: spec.createdId,
    handler: (scopeId, body, request) => loose.create(scopeId, body, actorIdOf(request.principal)),
    detail: spec.createDetail as ((created: unknown) => Record<string, unknown>) | undefined,
  });
  if (schemas.update && summaries.update) {
    const updateDetail = spec.updateDetail as ((body: unknown) => Record<string, unknown>) | undefined;
    routes.update({
      summary: summaries.update,
      body: schemas.update,
      response: schemas.item,
      handler: (scopeId, id, body, request) => {
        if (updateDetail) request.audit.detail = updateDetail(body);
        return loose.update(scopeId, id, body, actorIdOf(request.principal));
      },
    });
  }
  routes.remove({ summary: summaries.remove, handler: (scopeId, id) => loose.remove(scopeId, id) });
}

type LooseService = {
  list(scopeId: string, query: unknown): Promise<Listed<unknown[]>>;
  get(scopeId: string, id: string): Promise<unknown>;
  create(scopeId: string, body: unknown, actorId: string | null): Promise<unknown>;
  update(scopeId: string, id: string, body: unknown, actorId: string | null): Promise<unknown>;
  remove(scopeId: string, id: string): Promise<unknown>;
};
