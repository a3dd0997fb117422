import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';
import { inOrganisation, PUBLIC } from './auth/principal.js';
import { routes } from './routes.js';

const thing = z.object({ id: z.string(), name: z.string() });

/** A bare app with the zod compilers and an empty audit context on each request. */
async function appWith(declare: (app: FastifyInstance) => void) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('audit', null as never);
  app.addHook('onRequest', async (request) => {
    request.audit = {};
  });
  declare(app);
  await app.ready();
  return app;
}

describe('routes', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('declares access and audit as config, and the schemas with the tags and status', async () => {
    const routeOptions = new Map<string, { config?: unknown; schema?: Record<string, unknown> }>();
    app = await appWith((a) => {
      a.addHook('onRoute', (route) => {
        const { config, schema } = route;
        routeOptions.set(`${String(route.method)} ${route.url}`, {
          config,
          schema: schema as Record<string, unknown>,
        });
      });
      const r = routes(a.withTypeProvider<ZodTypeProvider>(), ['things']);
      r.get('/api/things', { summary: 'list', access: PUBLIC, response: z.array(thing), handler: () => [] });
      r.post('/api/things', {
        summary: 'make',
        tags: ['other'],
        access: inOrganisation('roles:create'),
        auditAction: 'thing.create',
        auditTarget: { type: 'thing', id: 'response.id' },
        body: thing,
        response: thing,
        status: 201,
        handler: async (request) => request.body,
      });
    });
    const list = routeOptions.get('GET /api/things')!;
    expect(list.config).toEqual({ access: PUBLIC });
    expect(list.schema).toMatchObject({ tags: ['things'], summary: 'list' });
    expect(Object.keys(list.schema!.response as object)).toEqual(['200']);
    const make = routeOptions.get('POST /api/things')!;
    expect(make.config).toEqual({
      access: inOrganisation('roles:create'),
      auditAction: 'thing.create',
      auditTarget: { type: 'thing', id: 'response.id' },
    });
    expect(make.schema).toMatchObject({ tags: ['other'], summary: 'make', body: thing });
    expect(Object.keys(make.schema!.response as object)).toEqual(['201']);
  });

  it('answers with the status, validates the input and sets X-Total-Count for a page', async () => {
    const removed: string[] = [];
    app = await appWith((a) => {
      const r = routes(a.withTypeProvider<ZodTypeProvider>(), []);
      const params = z.object({ id: z.string() });
      r.post('/things', {
        summary: 'make',
        access: PUBLIC,
        body: thing,
        response: thing,
        status: 201,
        handler: async (request) => ({ ...request.body, name: request.body.name.toUpperCase() }),
      });
      r.get('/things', {
        summary: 'page',
        access: PUBLIC,
        response: z.array(thing),
        handler: async () => ({ rows: [{ id: 'a', name: 'A' }], total: 7 }),
      });
      r.get('/rows', {
        summary: 'rows',
        access: PUBLIC,
        response: z.array(thing),
        handler: async () => [{ id: 'b', name: 'B' }],
      });
      r.delete('/things/:id', {
        summary: 'remove',
        access: PUBLIC,
        params,
        status: 204,
        handler: async (request) => removed.push(request.params.id),
      });
    });
    const made = await app.inject({ method: 'POST', url: '/things', payload: { id: 'x', name: 'n' } });
    expect([made.statusCode, made.json()]).toEqual([201, { id: 'x', name: 'N' }]);
    const refused = await app.inject({ method: 'POST', url: '/things', payload: { id: 'x' } });
    expect(refused.statusCode).toBe(400);
    const page = await app.inject('/things');
    expect([page.json(), page.headers[TOTAL_COUNT_HEADER.toLowerCase()]]).toEqual([
      [{ id: 'a', name: 'A' }],
      '7',
    ]);
    const rows = await app.inject('/rows');
    expect([rows.json(), rows.headers[TOTAL_COUNT_HEADER.toLowerCase()]]).toEqual([
      [{ id: 'b', name: 'B' }],
      undefined,
    ]);
    const gone = await app.inject({ method: 'DELETE', url: '/things/c' });
    expect([gone.statusCode, gone.body]).toEqual([204, '']);
    expect(removed).toEqual(['c']);
  });
});
