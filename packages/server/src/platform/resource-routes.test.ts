import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';
import type { AuditContext } from './auth/principal.js';
import { ORGANISATION, resourceRoutes, WORKSPACE } from './resource-routes.js';

const thing = z.object({ id: z.string(), name: z.string() });
const things = z.array(thing);
const thingBody = z.object({ name: z.string().min(1) });

/** A bare app with the zod compilers and what the access check sets (workspace, principal, audit). */
async function appWith(declare: (app: FastifyInstance) => void) {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('principal', null);
  app.decorateRequest('workspaceId', null);
  app.decorateRequest('audit', null as never);
  const audits: AuditContext[] = [];
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
  return { app, audits };
}

describe('resourceRoutes', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('declares access, audit action and target on each standard route', async () => {
    const configs = new Map<string, unknown>();
    ({ app } = await appWith((a) => {
      a.addHook('onRoute', (route) => void configs.set(`${String(route.method)} ${route.url}`, route.config));
      const r = resourceRoutes(a.withTypeProvider<ZodTypeProvider>(), {
        path: '/api/things',
        tags: ['things'],
        scope: WORKSPACE,
        permission: 'secrets',
        audit: 'thing',
        targetType: 'widget',
      });
      r.list({ summary: 'list', response: things, handler: async () => [] });
      r.get({ summary: 'get', response: thing, handler: async (_ws, id) => ({ id, name: 'x' }) });
      r.create({
        summary: 'create',
        body: thingBody,
        response: thing,
        handler: async (_ws, body) => ({ id: 'n', ...body }),
      });
      r.update({
        summary: 'update',
        body: thingBody,
        response: thing,
        handler: async (_ws, id, b) => ({ id, ...b }),
      });
      r.remove({ summary: 'revoke', auditAction: 'thing.revoke', handler: async () => undefined });
    }));
    const view = { access: { scope: 'workspace', permission: 'secrets:view' } };
    expect(configs.get('GET /api/things')).toEqual(view);
    expect(configs.get('GET /api/things/:id')).toEqual(view);
    expect(configs.get('POST /api/things')).toEqual({
      access: { scope: 'workspace', permission: 'secrets:create' },
      auditAction: 'thing.create',
      auditTarget: { type: 'widget', id: 'response.id' },
    });
    expect(configs.get('PUT /api/things/:id')).toEqual({
      access: { scope: 'workspace', permission: 'secrets:edit' },
      auditAction: 'thing.update',
      auditTarget: { type: 'widget', id: 'params.id' },
    });
    expect(configs.get('DELETE /api/things/:id')).toEqual({
      access: { scope: 'workspace', permission: 'secrets:delete' },
      auditAction: 'thing.revoke',
      auditTarget: { type: 'widget', id: 'params.id' },
    });
  });

  it('hands the handlers the scope and validated input, and answers 200, 201 and 204', async () => {
    const calls: unknown[][] = [];
    let audits: AuditContext[];
    ({ app, audits } = await appWith((a) => {
      const r = resourceRoutes(a.withTypeProvider<ZodTypeProvider>(), {
        path: '/api/things',
        tags: ['things'],
        scope: ORGANISATION,
        permission: 'roles',
        audit: 'thing',
      });
      r.get({ summary: 'get', response: thing, handler: async (org, id) => ({ id, name: org }) });
      r.create({
        summary: 'create',
        body: thingBody,
        response: thing,
        handler: async (org, body) => ({ id: 'new', name: `${org}/${body.name}` }),
        detail: (created) => ({ name: created.name }),
      });
      r.update({
        summary: 'update',
        body: thingBody,
        response: thing,
        handler: async (org, id, body) => ({ id, name: `${org}/${body.name}` }),
      });
      r.remove({ summary: 'delete', handler: async (...args) => void calls.push(args) });
    }));
    expect((await app.inject('/api/things/a')).json()).toEqual({ id: 'a', name: 'org-1' });
    const created = await app.inject({ method: 'POST', url: '/api/things', payload: { name: 'n' } });
    expect([created.statusCode, created.json()]).toEqual([201, { id: 'new', name: 'org-1/n' }]);
    expect(audits!.at(-1)!.detail).toEqual({ name: 'org-1/n' });
    const refused = await app.inject({ method: 'POST', url: '/api/things', payload: { name: '' } });
    expect(refused.statusCode).toBe(400);
    const updated = await app.inject({ method: 'PUT', url: '/api/things/b', payload: { name: 'm' } });
    expect(updated.json()).toEqual({ id: 'b', name: 'org-1/m' });
    const removed = await app.inject({ method: 'DELETE', url: '/api/things/c' });
    expect([removed.statusCode, removed.body]).toEqual([204, '']);
    expect(calls).toEqual([['org-1', 'c']]);
  });

  it('sets X-Total-Count for a page of rows, and not for the rows alone', async () => {
    const queries: unknown[] = [];
    ({ app } = await appWith((a) => {
      const typed = a.withTypeProvider<ZodTypeProvider>();
      const paged = resourceRoutes(typed, {
        path: '/api/paged',
        tags: [],
        scope: WORKSPACE,
        permission: 'secrets',
        audit: 'paged',
      });
      paged.list({
        summary: 'paged',
        querystring: z.object({ name: z.string().optional() }),
        response: things,
        handler: async (ws, query) => {
          queries.push(query);
          return { rows: [{ id: ws, name: query.name ?? '' }], total: 7 };
        },
      });
      const counted = resourceRoutes(typed, {
        path: '/api/counted',
        tags: [],
        scope: WORKSPACE,
        permission: 'secrets',
        audit: 'c',
      });
      counted.list({
        summary: 'counted',
        response: things,
        handler: async (_ws, query) => {
          queries.push(query);
          return {
            rows: [
              { id: 'a', name: 'a' },
              { id: 'b', name: 'b' },
            ],
          };
        },
      });
      const plain = resourceRoutes(typed, {
        path: '/api/plain',
        tags: [],
        scope: WORKSPACE,
        permission: 'secrets',
        audit: 'p',
      });
      plain.list({ summary: 'plain', response: things, handler: async () => [{ id: 'a', name: 'a' }] });
    }));
    const paged = await app.inject('/api/paged?name=x');
    expect([paged.json(), paged.headers[TOTAL_COUNT_HEADER.toLowerCase()]]).toEqual([
      [{ id: 'ws-1', name: 'x' }],
      '7',
    ]);
    const counted = await app.inject('/api/counted?ignored=1');
    expect(counted.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    const plain = await app.inject('/api/plain');
    expect([plain.json(), plain.headers[TOTAL_COUNT_HEADER.toLowerCase()]]).toEqual([
      [{ id: 'a', name: 'a' }],
      undefined,
    ]);
    expect(queries).toEqual([{ name: 'x' }, undefined]);
  });
});
