import { gunzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAuditTrail } from './audit-hook.js';
import type { AuditEventInput } from './audit-recorder.js';
import type { AuditTarget } from './audit-target.js';
import { AppError } from './errors.js';

const idParams = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 3 } },
  required: ['id'],
} as const;

/**
 * A bare app with what the access plugin gives the hook (request.audit, principal, workspaceId)
 * and a recorder that keeps the records; `x-deny` refuses a request before its handler, as the
 * access check does.
 */
async function appWith(
  routes: (app: FastifyInstance) => void,
  options: { compress?: boolean } = {},
): Promise<{ app: FastifyInstance; records: AuditEventInput[] }> {
  const app = Fastify({ logger: false });
  const records: AuditEventInput[] = [];
  app.decorateRequest('principal', null);
  app.decorateRequest('workspaceId', null);
  app.decorateRequest('audit', null as never);
  app.addHook('onRequest', async (request) => {
    request.audit = {};
    if (request.headers['x-deny']) throw new AppError(403, 'Action not allowed');
  });
  if (options.compress) await app.register(compress, { global: true, threshold: 0 });
  registerAuditTrail(app, { append: async (event) => void records.push(event) });
  routes(app);
  await app.ready();
  return { app, records };
}

const audited = (auditAction: string, auditTarget: AuditTarget) => ({ config: { auditAction, auditTarget } });

describe('the audit trail resolves a route’s declared target', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('reads the id from the path parameters, whatever the outcome once the handler ran', async () => {
    const made = await appWith((a) => {
      a.put(
        '/api/things/:id',
        { ...audited('thing.update', { type: 'thing', id: 'params.id' }), schema: { params: idParams } },
        async (request) => {
          if ((request.params as { id: string }).id === 'missing') throw new AppError(404, 'Not found');
          return { ok: true };
        },
      );
    });
    app = made.app;
    await app.inject({ method: 'PUT', url: '/api/things/t-1' });
    await app.inject({ method: 'PUT', url: '/api/things/missing' });
    expect(made.records.map((r) => [r.action, r.outcome, r.targetType, r.targetId])).toEqual([
      ['thing.update', 'success', 'thing', 't-1'],
      ['thing.update', 'failure', 'thing', 'missing'],
    ]);
  });

  it('names no target when the request is refused before its handler (access, validation)', async () => {
    const made = await appWith((a) => {
      a.put(
        '/api/things/:id',
        { ...audited('thing.update', { type: 'thing', id: 'params.id' }), schema: { params: idParams } },
        async () => ({ ok: true }),
      );
    });
    app = made.app;
    const denied = await app.inject({ method: 'PUT', url: '/api/things/t-1', headers: { 'x-deny': '1' } });
    const invalid = await app.inject({ method: 'PUT', url: '/api/things/t' });
    expect([denied.statusCode, invalid.statusCode]).toEqual([403, 400]);
    expect(made.records.map((r) => [r.outcome, r.statusCode, r.targetType, r.targetId])).toEqual([
      ['denied', 403, null, null],
      ['failure', 400, null, null],
    ]);
  });

  it('reads the id from the body', async () => {
    const made = await appWith((a) => {
      a.post('/api/members', audited('member.add', { type: 'user', id: 'body.user.id' }), async (_r, reply) =>
        reply.code(204).send(),
      );
    });
    app = made.app;
    await app.inject({ method: 'POST', url: '/api/members', payload: { user: { id: 'u-7' } } });
    await app.inject({ method: 'POST', url: '/api/members', payload: { user: { id: 7 } } });
    expect(made.records.map((r) => [r.targetType, r.targetId])).toEqual([
      ['user', 'u-7'],
      ['user', null], // not a string: no id rather than a guess
    ]);
  });

  it('reads the id of what a create made from its 2xx JSON answer, nested or not', async () => {
    const made = await appWith((a) => {
      a.post(
        '/api/things',
        audited('thing.create', { type: 'thing', id: 'response.id' }),
        async (request, reply) => {
          if ((request.body as { fail?: boolean }).fail) throw new AppError(409, 'Taken');
          return reply.code(201).send({ id: 't-9', name: 'x' });
        },
      );
      a.post(
        '/api/clusters',
        audited('cluster.create', { type: 'cluster', id: 'response.cluster.id' }),
        async (_r, reply) => reply.code(201).send({ cluster: { id: 'c-1' }, token: 'secret' }),
      );
    });
    app = made.app;
    await app.inject({ method: 'POST', url: '/api/things', payload: {} });
    await app.inject({ method: 'POST', url: '/api/things', payload: { fail: true } });
    await app.inject({ method: 'POST', url: '/api/clusters', payload: {} });
    expect(made.records.map((r) => [r.action, r.statusCode, r.targetType, r.targetId])).toEqual([
      ['thing.create', 201, 'thing', 't-9'],
      // a failed create names the kind it tried to make, and no id: the error answer is not read
      ['thing.create', 409, 'thing', null],
      ['cluster.create', 201, 'cluster', 'c-1'],
    ]);
  });

  it('does not read an answer that is not a JSON string (text, buffer, empty)', async () => {
    const made = await appWith((a) => {
      const target: AuditTarget = { type: 'thing', id: 'response.id' };
      a.post('/api/text', audited('thing.text', target), async (_r, reply) =>
        reply.type('text/plain').send('{"id":"t-1"}'),
      );
      a.post('/api/buffer', audited('thing.buffer', target), async (_r, reply) =>
        reply.type('application/json').send(Buffer.from('{"id":"t-2"}')),
      );
      a.post('/api/broken', audited('thing.broken', target), async (_r, reply) =>
        reply.type('application/json').send('{"id":'),
      );
      a.delete('/api/empty', audited('thing.empty', target), async (_r, reply) => reply.code(204).send());
    });
    app = made.app;
    for (const [method, url] of [
      ['POST', '/api/text'],
      ['POST', '/api/buffer'],
      ['POST', '/api/broken'],
      ['DELETE', '/api/empty'],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode, res.body).toBeLessThan(300);
    }
    expect(made.records.map((r) => [r.action, r.targetType, r.targetId])).toEqual([
      ['thing.text', 'thing', null],
      ['thing.buffer', 'thing', null],
      ['thing.broken', 'thing', null],
      ['thing.empty', 'thing', null],
    ]);
  });

  it('reads the JSON answer before compression, which comes after it', async () => {
    const made = await appWith(
      (a) => {
        a.post(
          '/api/things',
          audited('thing.create', { type: 'thing', id: 'response.id' }),
          async (_r, reply) => reply.code(201).send({ id: 't-3', text: 'x'.repeat(4000) }),
        );
      },
      { compress: true },
    );
    app = made.app;
    const res = await app.inject({
      method: 'POST',
      url: '/api/things',
      headers: { 'accept-encoding': 'gzip' },
      payload: {},
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).id).toBe('t-3');
    expect(made.records.map((r) => [r.targetType, r.targetId])).toEqual([['thing', 't-3']]);
  });

  it('asks a function for the odd id, with the request and the 2xx JSON answer', async () => {
    const seen: unknown[] = [];
    const made = await appWith((a) => {
      a.put(
        '/api/settings',
        audited('settings.update', {
          type: 'settings',
          id: (request, body) => {
            seen.push(body);
            return String(request.headers['x-org'] ?? '') || undefined;
          },
        }),
        async (request) => {
          if (request.headers['x-fail']) throw new AppError(409, 'Conflict');
          return { saved: true };
        },
      );
    });
    app = made.app;
    await app.inject({ method: 'PUT', url: '/api/settings', headers: { 'x-org': 'o-1' } });
    await app.inject({ method: 'PUT', url: '/api/settings' });
    await app.inject({ method: 'PUT', url: '/api/settings', headers: { 'x-org': 'o-1', 'x-fail': '1' } });
    expect(seen).toEqual([{ saved: true }, { saved: true }, undefined]);
    expect(made.records.map((r) => [r.statusCode, r.targetType, r.targetId])).toEqual([
      [200, 'settings', 'o-1'],
      [200, 'settings', null],
      [409, 'settings', 'o-1'],
    ]);
  });

  it('still writes the record when the function fails, without the id', async () => {
    const made = await appWith((a) => {
      a.put(
        '/api/settings',
        audited('settings.update', {
          type: 'settings',
          id: () => {
            throw new Error('no');
          },
        }),
        async () => ({ saved: true }),
      );
    });
    app = made.app;
    const res = await app.inject({ method: 'PUT', url: '/api/settings' });
    expect(res.statusCode).toBe(200);
    expect(made.records.map((r) => [r.action, r.targetType, r.targetId])).toEqual([
      ['settings.update', 'settings', null],
    ]);
  });

  it('lets what the handler sets win, and keeps its detail and defaults', async () => {
    const made = await appWith((a) => {
      a.post(
        '/api/invites/accept',
        audited('invite.accept', { type: 'invite', id: 'response.id' }),
        async (request) => {
          request.audit.targetId = 'i-1';
          request.audit.organisationId = 'o-2';
          request.audit.workspaceId = 'w-2';
          request.audit.actorLabel = 'someone@example.com';
          request.audit.detail = { role: 'member' };
          return { id: 'session-1' };
        },
      );
      a.put('/api/things/:id', audited('thing.move', { type: 'thing', id: 'params.id' }), async (request) => {
        request.audit.targetType = 'folder';
        request.audit.targetId = 'f-1';
        return {};
      });
    });
    app = made.app;
    await app.inject({ method: 'POST', url: '/api/invites/accept', payload: {} });
    await app.inject({ method: 'PUT', url: '/api/things/t-1' });
    expect(made.records[0]).toMatchObject({
      targetType: 'invite',
      targetId: 'i-1',
      organisationId: 'o-2',
      workspaceId: 'w-2',
      actorLabel: 'someone@example.com',
      detail: { role: 'member' },
    });
    expect(made.records[1]).toMatchObject({ targetType: 'folder', targetId: 'f-1' });
  });

  it('records routes without a declaration as before, from what the handler sets', async () => {
    const made = await appWith((a) => {
      a.post('/api/plain', { config: { auditAction: 'plain.do' } }, async (request) => {
        request.audit.targetType = 'plain';
        return { id: 'p-1' };
      });
      a.post('/api/bare', async () => ({ id: 'b-1' }));
    });
    app = made.app;
    await app.inject({ method: 'POST', url: '/api/plain' });
    await app.inject({ method: 'POST', url: '/api/bare' });
    expect(made.records.map((r) => [r.action, r.targetType, r.targetId])).toEqual([
      ['plain.do', 'plain', null],
      ['POST /api/bare', null, null],
    ]);
  });

  it('leaves out a successful request its handler marks not recorded, never a failed one', async () => {
    const made = await appWith((a) => {
      a.post('/api/progress', { config: { auditAction: 'progress.move' } }, async (request) => {
        const { fail, record } = request.body as { fail?: boolean; record?: boolean };
        if (!record) request.audit.notRecorded = true;
        if (fail) throw new AppError(409, 'Refused');
        return { ok: true };
      });
    });
    app = made.app;
    await app.inject({ method: 'POST', url: '/api/progress', payload: {} });
    await app.inject({ method: 'POST', url: '/api/progress', payload: { record: true } });
    await app.inject({ method: 'POST', url: '/api/progress', payload: { fail: true } });
    await app.inject({ method: 'POST', url: '/api/progress', payload: {}, headers: { 'x-deny': '1' } });
    expect(made.records.map((r) => [r.action, r.statusCode])).toEqual([
      ['progress.move', 200],
      ['progress.move', 409],
      ['progress.move', 403],
    ]);
  });

  it('refuses, at registration, a declaration it could never read', async () => {
    const register = (target: AuditTarget, url = '/api/things/:id') =>
      appWith((a) => {
        a.put(url, audited('thing.update', target), async () => ({}));
      });
    await expect(register({ type: 'thing', id: 'params.name' })).rejects.toThrow(
      "Route /api/things/:id declares auditTarget with 'params.name', which its path does not have",
    );
    await expect(register({ type: 'thing', id: 'query.id' as never })).rejects.toThrow(
      "declares auditTarget with an id it cannot read: 'query.id'",
    );
    await expect(register({ type: 'thing', id: 'response.' })).rejects.toThrow('an id it cannot read');
    await expect(register({ type: '', id: 'params.id' })).rejects.toThrow('without a type');
  });
});
