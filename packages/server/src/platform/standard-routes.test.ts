import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';
import type { AuditContext } from './auth/principal.js';
import { resourceRoutes, WORKSPACE, type Resource } from './resource-routes.js';
import { standardRoutes } from './standard-routes.js';

const thing = z.object({ id: z.string(), name: z.string() });
const things = z.array(thing);
const thingBody = z.object({ name: z.string().min(1) });
const RESOURCE: Resource = {
  path: '/api/things',
  tags: ['things'],
  scope: WORKSPACE,
  permission: 'secrets',
  audit: 'thing',
};

/** A bare app with the zod compilers and what the access check sets; it records each route's config. */
async function appWith(declare: (app: FastifyInstance) => void) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('principal', null);
  app.decorateRequest('workspaceId', null);
  app.decorateRequest('audit', null as never);
  const audits: AuditContext[] = [];
  const configs = new Map<string, unknown>();
  app.addHook('onRoute', (route) => void configs.set(`${String(route.method)} ${route.url}`, route.config));
  app.addHook('onRequest', async (request) => {
    request.workspaceId = 'ws-1';
    request.principal = {
      kind: 'service_account',
      serviceAccountId: 'sa',
      organisationId: 'org-1',
      name: 'ci',
    };
    request.audit = {};
    audits.push(request.audit);
  });
  declare(app);
  await app.ready();
  return { app, audits, configs };
}

describe('standardRoutes', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("hands each standard route to the service's method, with the actor and the audit details", async () => {
    const calls: unknown[][] = [];
    const service = {
      list: async (ws: string, query: { name?: string }) => ({ rows: [{ id: ws, name: query.name ?? '' }] }),
      get: async (ws: string, id: string) => ({ id, name: ws }),
      create: async (ws: string, body: { name: string }, actorId: string | null) => {
        calls.push(['create', ws, body, actorId]);
        return { id: 'new', name: body.name };
      },
      update: async (ws: string, id: string, body: { name: string }, actorId: string | null) => {
        calls.push(['update', ws, id, body, actorId]);
        return { id, name: body.name };
      },
      remove: async (ws: string, id: string) => void calls.push(['remove', ws, id]),
    };
    let audits: AuditContext[];
    ({ app, audits } = await appWith((a) => {
      const routes = resourceRoutes(a.withTypeProvider<ZodTypeProvider>(), RESOURCE);
      standardRoutes(routes, service, {
        schemas: {
          query: z.object({ name: z.string().optional() }),
          list: things,
          item: thing,
          create: thingBody,
          update: thingBody,
        },
        summaries: { list: 'list', get: 'get', create: 'create', update: 'update', remove: 'remove' },
        createDetail: (created) => ({ made: created.name }),
        updateDetail: (body) => ({ asked: body.name }),
      });
    }));
    const listed = await app.inject('/api/things?name=x');
    expect([listed.json(), listed.headers[TOTAL_COUNT_HEADER.toLowerCase()]]).toEqual([
      [{ id: 'ws-1', name: 'x' }],
      '1',
    ]);
    expect((await app.inject('/api/things/a')).json()).toEqual({ id: 'a', name: 'ws-1' });
    const created = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'n' } });
    expect([created.statusCode, audits!.at(-1)!.detail]).toEqual([201, { made: 'n' }]);
    const updated = await app.inject({ method: 'PUT', url: '/api/things/b', payload: { name: 'm' } });
    expect([updated.json(), audits!.at(-1)!.detail]).toEqual([{ id: 'b', name: 'm' }, { asked: 'm' }]);
    expect((await app.inject({ method: 'DELETE', url: '/api/things/c' })).statusCode).toBe(204);
    expect(calls).toEqual([
      ['create', 'ws-1', { name: 'n' }, 'sa'],
      ['update', 'ws-1', 'b', { name: 'm' }, 'sa'],
      ['remove', 'ws-1', 'c'],
    ]);
  });

  it('declares no PUT without an update schema', async () => {
    let configs: Map<string, unknown>;
    ({ app, configs } = await appWith((a) => {
      const routes = resourceRoutes(a.withTypeProvider<ZodTypeProvider>(), RESOURCE);
      standardRoutes(
        routes,
        {
          list: async () => [],
          get: async (_ws: string, id: string) => ({ id, name: '' }),
          create: async () => ({ thing: { id: 'n', name: '' } }),
          remove: async () => undefined,
        },
        {
          schemas: { list: things, item: thing, created: z.object({ thing }), create: thingBody },
          summaries: { list: 'list', get: 'get', create: 'create', remove: 'remove' },
          createdId: 'response.thing.id',
        },
      );
    }));
    expect([...configs!.keys()].filter((k) => !k.startsWith('HEAD'))).toEqual([
      'GET /api/things',
      'GET /api/things/:id',
      'POST /api/things',
      'DELETE /api/things/:id',
    ]);
    expect(configs!.get('POST /api/things')).toMatchObject({
      auditTarget: { type: 'thing', id: 'response.thing.id' },
    });
  });
});

describe("resourceRoutes' item routes", () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('declares an action on an item with its access and audit, and a view of it', async () => {
    let configs: Map<string, unknown>;
    ({ app, configs } = await appWith((a) => {
      const routes = resourceRoutes(a.withTypeProvider<ZodTypeProvider>(), RESOURCE);
      routes.action({
        name: 'rotate',
        summary: 'rotate',
        body: thingBody.optional(),
        response: thing,
        handler: async (ws, id, body) => ({ id, name: `${ws}/${body?.name ?? '-'}` }),
      });
      routes.action({
        name: 'copy',
        permission: 'create',
        auditAction: 'thing.create',
        targetId: 'response.id',
        status: 201,
        summary: 'copy',
        response: thing,
        handler: async (_ws, id) => ({ id: `${id}-copy`, name: 'copy' }),
      });
      routes.view({
        name: 'parts',
        summary: 'parts',
        querystring: z.object({ n: z.coerce.number() }),
        response: things,
        handler: async (_ws, { id }, query) => ({
          rows: [{ id, name: 'part' }],
          total: query.n,
        }),
      });
      routes.view({
        name: 'text',
        summary: 'text',
        handler: async (_ws, { id }, _query, reply) => reply.type('text/plain').send(`text of ${id}`),
      });
    }));
    expect(configs!.get('POST /api/things/:id/rotate')).toEqual({
      access: { scope: 'workspace', permission: 'secrets:edit' },
      auditAction: 'thing.rotate',
      auditTarget: { type: 'thing', id: 'params.id' },
    });
    expect(configs!.get('POST /api/things/:id/copy')).toEqual({
      access: { scope: 'workspace', permission: 'secrets:create' },
      auditAction: 'thing.create',
      auditTarget: { type: 'thing', id: 'response.id' },
    });
    expect(configs!.get('GET /api/things/:id/parts')).toEqual({
      access: { scope: 'workspace', permission: 'secrets:view' },
    });
    const rotated = await app.inject({ method: 'POST', url: '/api/things/a/rotate', payload: { name: 'k' } });
    expect([rotated.statusCode, rotated.json()]).toEqual([200, { id: 'a', name: 'ws-1/k' }]);
    const copied = await app.inject({ method: 'POST', url: '/api/things/a/copy' });
    expect(copied.statusCode).toBe(201);
    const parts = await app.inject('/api/things/b/parts?n=5');
    expect([parts.json(), parts.headers[TOTAL_COUNT_HEADER.toLowerCase()]]).toEqual([
      [{ id: 'b', name: 'part' }],
      '5',
    ]);
    expect((await app.inject('/api/things/c/text')).body).toBe('text of c');
  });
});
