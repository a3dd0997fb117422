import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from './database/schema.js';
import { createSignedInUser, type TestUser } from '../test-support/identity.js';
import { createTestApp, type TestApp } from '../test-support/test-app.js';
import { NUL_RULE, firstNul, withoutNul } from './nul-guard.js';

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: build }
spec:
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`;

describe('firstNul and withoutNul', () => {
  it('finds a NUL in nested values and keys, naming its path', () => {
    expect(firstNul({ a: 'ok', b: [1, { c: 'x\u0000' }] }, 'body')).toBe('body.b.1.c');
    expect(firstNul({ 'k\u0000': 1 }, 'body')).toBe('body.k\\u0000');
    expect(firstNul({ a: ['fine', null, true, 3] }, 'body')).toBeNull();
    expect(firstNul('plain', 'body')).toBeNull();
  });

  it('takes every NUL out of strings, keys and nested values', () => {
    expect(withoutNul({ 'a\u0000': ['b\u0000c', { d: '\u0000' }], n: 1 })).toEqual({
      'a\\u0000': ['b\\u0000c', { d: '\\u0000' }],
      n: 1,
    });
  });
});

describe('NUL characters in requests', () => {
  let t: TestApp;
  let owner: TestUser;
  let pipelineId: string;
  let hookId: string;

  const auditRows = async () =>
    t.db.database.db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1);
  /** 400, the field and the rule in the usual validation shape, and an audit row for a mutation. */
  const expectRefused = async (
    res: { statusCode: number; json(): unknown; body: string },
    field: string,
    audit?: { action: string; actorId: string | null },
  ) => {
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { message: string; details: Array<{ path: string; message: string }> };
    expect(body.message).toBe(`${field}: ${NUL_RULE}`);
    expect(body.details).toEqual([{ path: field, message: NUL_RULE }]);
    // The answer writes a NUL only as the text \u0000 (JSON: \\u0000), never as the character.
    expect(res.body).not.toMatch(/(?<!\\)\\u0000/);
    if (audit) {
      const [row] = await auditRows();
      expect(row).toMatchObject({
        action: audit.action,
        actorId: audit.actorId,
        outcome: 'failure',
        statusCode: 400,
      });
      expect(firstNul(row, 'row')).toBeNull();
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/pipelines',
      headers: owner.headers,
      payload: { name: 'build', definition: PIPELINE },
    });
    expect(made.statusCode, made.body).toBe(201);
    pipelineId = made.json().id;
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: owner.headers,
      payload: { pipelineId, type: 'github', event: 'push' },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    hookId = hook.json().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses a NUL in the sign-in body and still records the attempt', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: `${owner.email}\u0000`, password: 'x' },
    });
    await expectRefused(res, 'body.email', { action: 'auth.login', actorId: null });
    const pw = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.email, password: 'pass\u0000word' },
    });
    await expectRefused(pw, 'body.password');
  });

  it('refuses a NUL in a pipeline create: a field, deep in a nested body, and in a key', async () => {
    const audit = { action: 'pipeline.create', actorId: owner.userId };
    const post = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/pipelines',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    await expectRefused(await post({ name: 'a\u0000b', definition: PIPELINE }), 'body.name', audit);
    await expectRefused(
      await post({ name: 'ok', definition: PIPELINE.replace('true', 'tr\u0000ue') }),
      'body.definition',
      audit,
    );
    await expectRefused(
      await post({ name: 'ok', definition: PIPELINE, extra: { deeper: [{ x: 'y' }, { z: '\u0000' }] } }),
      'body.extra.deeper.1.z',
      audit,
    );
    await expectRefused(
      await post({ name: 'ok', definition: PIPELINE, ['k\u0000ey']: 1 }),
      'body.k\\u0000ey',
      audit,
    );
  });

  it('refuses a NUL in a secret create, in values and value keys', async () => {
    const audit = { action: 'secret.create', actorId: owner.userId };
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/secrets', headers: owner.headers, payload });
    await expectRefused(await post({ name: 'db', value: 'pa\u0000ss' }), 'body.value', audit);
    await expectRefused(
      await post({ name: 'db', values: { ['us\u0000er']: 'x' } }),
      'body.values.us\\u0000er',
      audit,
    );
    await expectRefused(await post({ name: 'd\u0000b', value: 'x' }), 'body.name', audit);
  });

  it('refuses a NUL in the path, in path params and in the query string, raw or percent-encoded', async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/pipelines/${pipelineId}%00`,
      headers: owner.headers,
      payload: { name: 'x' },
    });
    await expectRefused(put, 'params.id', { action: 'pipeline.update', actorId: owner.userId });
    const del = await t.app.inject({ method: 'DELETE', url: '/api/secrets/a%00b', headers: owner.headers });
    await expectRefused(del, 'params.id', { action: 'secret.delete', actorId: owner.userId });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/pipelines?_sort=na%00me',
      headers: owner.headers,
    });
    await expectRefused(list, 'querystring._sort');
    const key = await t.app.inject({ method: 'GET', url: '/api/pipelines?a%00=1', headers: owner.headers });
    await expectRefused(key, 'querystring.a\\u0000');
    const get = await t.app.inject({ method: 'GET', url: `/api/pipelines/x%00y`, headers: owner.headers });
    await expectRefused(get, 'params.id');
    const raw = await t.app.inject({
      method: 'GET',
      url: '/api/audit?action=a\u0000b',
      headers: owner.headers,
    });
    await expectRefused(raw, 'querystring.action');
    const web = await t.app.inject({ method: 'GET', url: '/some/page%00.html' });
    expect(web.statusCode).toBe(400);
    expect(web.json().details[0].message).toBe(NUL_RULE);
  });

  it('refuses a NUL in a header the app reads, before it reaches the database', async () => {
    const ws = await t.app.inject({
      method: 'POST',
      url: '/api/secrets',
      headers: { ...owner.headers, 'x-workspace-id': `${owner.workspaceId}\u0000` },
      payload: { name: 'db', value: 'x' },
    });
    await expectRefused(ws, 'headers.x-workspace-id', { action: 'secret.create', actorId: null });
    const ua = await t.app.inject({
      method: 'POST',
      url: '/api/secrets',
      headers: { ...owner.headers, 'user-agent': 'curl\u0000/8' },
      payload: { name: 'db', value: 'x' },
    });
    await expectRefused(ua, 'headers.user-agent', { action: 'secret.create', actorId: null });
  });

  it('refuses a NUL in a webhook delivery (body, form field, header and id) and records it', async () => {
    const audit = { action: 'webhook.deliver', actorId: null };
    const deliver = (url: string, payload: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', ...headers },
        payload,
      });
    await expectRefused(
      await deliver(`/api/hooks/${hookId}`, JSON.stringify({ ref: 'refs/heads/ma\u0000in' })),
      'body.ref',
      audit,
    );
    await expectRefused(await deliver(`/api/hooks/${hookId}`, '{"ref":"a\u0000"}'), 'body', audit);
    await expectRefused(
      await deliver(
        `/api/hooks/${hookId}`,
        `payload=${encodeURIComponent(JSON.stringify({ head_commit: { message: 'x\u0000' } }))}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
      ),
      'body.payload.head_commit.message',
      audit,
    );
    await expectRefused(
      await deliver(`/api/hooks/${hookId}`, '{}', { 'x-github-delivery': 'id\u0000' }),
      'headers.x-github-delivery',
      audit,
    );
    await expectRefused(await deliver(`/api/hooks/${hookId}%00`, '{}'), 'params.id', audit);
  });

  it('keeps serving ordinary requests', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/pipelines?_sort=name',
      headers: owner.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
