import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRuntimeSettings, errorResponseSchema } from '@slipway/contracts';
import { createTestApp, type TestApp } from './test-support/test-app.js';
import { ConflictError } from './platform/errors.js';
import { PUBLIC } from './platform/auth/principal.js';

describe('HTTP foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SLIPWAY_BODY_LIMIT: '1024' }, (app) => {
      app.post('/api/test/echo', { config: { access: PUBLIC } }, async (request) => ({ got: request.body }));
      app.get('/api/test/boom', { config: { access: PUBLIC } }, async () => {
        throw new Error('database password is hunter2');
      });
      app.get('/api/test/conflict', { config: { access: PUBLIC } }, async () => {
        throw new ConflictError('Name already taken');
      });
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers healthz with the process status', async () => {
    const res = await t.app.inject('/api/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('answers readyz once the database is reachable and migrated', async () => {
    const res = await t.app.inject('/api/readyz');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe('ready');
    expect(body.database.reachable).toBe(true);
    expect(body.database.migrationsApplied).toBe(body.database.migrationsExpected);
    expect(body.database.driver).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  });

  it('echoes or creates a request id', async () => {
    const given = await t.app.inject({ url: '/api/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await t.app.inject('/api/healthz');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject('/api/healthz');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  describe('errors', () => {
    const shape = (res: { json(): unknown }) => errorResponseSchema.parse(res.json());

    it('answers an unknown API route 404 in the error shape', async () => {
      const res = await t.app.inject('/api/does-not-exist');
      expect(res.statusCode).toBe(404);
      expect(shape(res)).toMatchObject({
        statusCode: 404,
        error: 'Not Found',
        message: 'Route GET /api/does-not-exist not found',
      });
    });

    it('answers malformed JSON 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: '{"a":',
      });
      expect(res.statusCode).toBe(400);
      expect(shape(res).error).toBe('Bad Request');
    });

    it('answers an oversized body 413', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ a: 'x'.repeat(4096) }),
      });
      expect(res.statusCode).toBe(413);
      expect(shape(res).statusCode).toBe(413);
    });

    it('answers an unsupported content type 415', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/test/echo',
        headers: { 'content-type': 'application/x-yaml' },
        payload: 'a: 1',
      });
      expect(res.statusCode).toBe(415);
      expect(shape(res).statusCode).toBe(415);
    });

    it('hides 5xx details behind the default message and keeps the request id', async () => {
      const res = await t.app.inject('/api/test/boom');
      expect(res.statusCode).toBe(500);
      const body = shape(res);
      expect(body.message).toBe('Something went wrong. Please try again!');
      expect(res.body).not.toContain('hunter2');
      expect(body.requestId).toBe(res.headers['x-request-id']);
    });

    it('maps typed errors to their status', async () => {
      const res = await t.app.inject('/api/test/conflict');
      expect(res.statusCode).toBe(409);
      expect(shape(res).message).toBe('Name already taken');
    });
  });

  describe('OpenAPI', () => {
    it('documents the routes', async () => {
      const res = await t.app.inject('/api/openapi.json');
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.0.3');
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/api/healthz', '/api/readyz', '/config/config.json']),
      );
      expect(doc.paths['/api/readyz'].get.responses['503']).toBeDefined();
    });

    it('serves the docs UI', async () => {
      const res = await t.app.inject('/api/docs/');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
    });
  });

  describe('web app serving', () => {
    it('serves index.html for client routes, revalidated', async () => {
      const res = await t.app.inject({ url: '/pipelines/runs/42', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    });

    it('serves hashed assets with long-lived caching and compression', async () => {
      const res = await t.app.inject({
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('gzip');
    });

    it('answers a missing asset 404, not the page', async () => {
      const res = await t.app.inject('/assets/missing-000.js');
      expect(res.statusCode).toBe(404);
    });

    it('never falls back to the page under /api', async () => {
      const res = await t.app.inject({ url: '/api/no-such-area/42', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
    });
  });

  describe('runtime settings', () => {
    it('serves the defaults, everything disabled, when no file is configured', async () => {
      const res = await t.app.inject('/config/config.json');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(defaultRuntimeSettings);
      expect(res.headers['cache-control']).toBe('no-cache');
    });
  });
});

describe('runtime settings from SLIPWAY_CONFIG_FILE', () => {
  let t: TestApp;
  let file: string;
  beforeAll(async () => {
    file = path.join(mkdtempSync(path.join(tmpdir(), 'slipway-settings-')), 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        sentry: { enabled: true, dsn: 'https://k@errors.example.test/1', environment: 'staging' },
        unleash: { enabled: true, url: 'https://flags.example.test/proxy', clientKey: 'abc', extra: 'kept' },
      }),
    );
    t = await createTestApp({ SLIPWAY_CONFIG_FILE: file });
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the file, filling what it leaves out, and keeps extra unleash settings', async () => {
    const body = (await t.app.inject('/config/config.json')).json();
    expect(body.sentry).toEqual({
      enabled: true,
      dsn: 'https://k@errors.example.test/1',
      environment: 'staging',
    });
    expect(body.heapAnalytics).toEqual({ enabled: false, key: '' });
    expect(body.unleash).toMatchObject({
      enabled: true,
      clientKey: 'abc',
      appName: 'slipway',
      extra: 'kept',
    });
  });

  it('admits the enabled services in the content security policy', async () => {
    const csp = (await t.app.inject('/config/config.json')).headers['content-security-policy'] as string;
    expect(csp).toContain('https://errors.example.test');
    expect(csp).toContain('https://flags.example.test');
  });

  it('picks up a change without a restart', async () => {
    writeFileSync(file, JSON.stringify({ heapAnalytics: { enabled: true, key: '12345' } }));
    const body = (await t.app.inject('/config/config.json')).json();
    expect(body.heapAnalytics).toEqual({ enabled: true, key: '12345' });
    expect(body.sentry.enabled).toBe(false);
  });

  it.each([
    ['corrupt JSON', '{"sentry": {'],
    ['a wrongly typed field', JSON.stringify({ sentry: { enabled: 'yes' } })],
  ])('serves the defaults for %s instead of failing', async (_what, content) => {
    writeFileSync(file, content);
    const res = await t.app.inject('/config/config.json');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(defaultRuntimeSettings);
  });
});

describe('runtime settings file missing', () => {
  it('serves the defaults', async () => {
    const t = await createTestApp({ SLIPWAY_CONFIG_FILE: '/nonexistent/slipway/config.json' });
    try {
      const res = await t.app.inject('/config/config.json');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(defaultRuntimeSettings);
    } finally {
      await t.close();
    }
  });
});
