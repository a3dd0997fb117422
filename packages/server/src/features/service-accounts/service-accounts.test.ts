import { sql } from 'drizzle-orm';
import { MESSAGES } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inWorkspace } from '../../platform/auth/principal.js';
import { STANDING_CACHE_TTL_MS } from '../../platform/auth/standing-cache.js';
import { hashToken } from '../../platform/keys.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs, query } from '../members/team.test-helper.js';
import { checkExpiry } from './service-accounts-service.js';

const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

describe('checkExpiry', () => {
  it('wants a date in the future and at most a year away', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(checkExpiry('2025-06-01', now).toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(() => checkExpiry('2024-12-31', now)).toThrow('The expiry date must be in the future');
    expect(() => checkExpiry('2026-02-01', now)).toThrow('The expiry date must be at most one year away');
    expect(() => checkExpiry('2025-02-30x', now)).toThrow(MESSAGES.invalidDate);
  });
});

describe('service accounts', () => {
  let t: TestApp;
  let admin: TestUser;
  let foreign: TestUser;
  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      app.get(
        '/api/test/pipelines',
        { config: { access: inWorkspace('pipelines:view') } },
        async (request) => ({
          workspaceId: request.workspaceId,
        }),
      );
    });
    admin = await createSignedInUser(t.app, t.db.database);
    foreign = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const create = (name: string, workspaces = [{ workspaceId: admin.workspaceId, role: 'viewer' }]) =>
    call(admin, 'POST', '/api/service-accounts', { name, expiresAt: inDays(30), workspaces });
  const asToken = (token: string, url: string, workspaceId = admin.workspaceId) =>
    t.app.inject({ url, headers: { authorization: token, 'x-workspace-id': workspaceId } });

  it('shows the token once, keeps only its prefix and hash, and the token works as authorization', async () => {
    const res = await create('deployer');
    expect(res.statusCode).toBe(201);
    const created = res.json() as { id: string; token: string; tokenPrefix: string; expiresAt: string };
    expect(created.token).toMatch(/^slw_sa_[A-Za-z0-9_-]{40,}$/);
    expect(created.tokenPrefix).toBe(created.token.slice(0, 12));
    const [row] = await query(
      t,
      sql`SELECT token_prefix, token_hash FROM service_accounts WHERE id = ${created.id}`,
    );
    expect(row).toEqual({ token_prefix: created.tokenPrefix, token_hash: hashToken(created.token) });

    const list = await call(admin, 'GET', '/api/service-accounts');
    expect(list.body).not.toContain(created.token);
    expect(list.body).not.toContain(hashToken(created.token));
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: created.id,
        name: 'deployer',
        tokenPrefix: created.tokenPrefix,
        lastUsedAt: null,
        revokedAt: null,
        createdBy: admin.userId,
        workspaces: [{ workspaceId: admin.workspaceId, role: 'viewer' }],
      }),
    ]);

    const used = await asToken(created.token, '/api/test/pipelines');
    expect(used.statusCode).toBe(200);
    expect((await asToken(`Bearer ${created.token}`, '/api/workspaces')).json()).toEqual([
      expect.objectContaining({ id: admin.workspaceId, role: 'viewer' }),
    ]);
    // a workspace it was not given is not found; organisation administration is not allowed
    expect((await asToken(created.token, '/api/test/pipelines', foreign.workspaceId)).statusCode).toBe(404);
    expect((await asToken(created.token, '/api/members')).statusCode).toBe(403);

    const after = (await call(admin, 'GET', '/api/service-accounts')).json() as Array<{
      lastUsedAt: string | null;
    }>;
    expect(after[0]!.lastUsedAt).not.toBeNull();
    await expectAudited(t, 'service_account.create', {
      outcome: 'success',
      target_type: 'service_account',
      target_id: created.id,
    });
  });

  it('revoked and expired tokens answer 401', async () => {
    const revoked = (await create('revoked')).json() as { id: string; token: string };
    expect((await call(admin, 'DELETE', `/api/service-accounts/${revoked.id}`)).statusCode).toBe(204);
    expect((await asToken(revoked.token, '/api/test/pipelines')).statusCode).toBe(401);
    const listed = (await call(admin, 'GET', '/api/service-accounts')).json() as Array<{
      id: string;
      revokedAt: string | null;
    }>;
    expect(listed.find((s) => s.id === revoked.id)!.revokedAt).not.toBeNull();
    await expectAudited(t, 'service_account.revoke', { outcome: 'success', target_id: revoked.id });

    const expired = (await create('expired')).json() as { id: string; token: string };
    expect((await asToken(expired.token, '/api/test/pipelines')).statusCode).toBe(200);
    await query(
      t,
      sql`UPDATE service_accounts SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}`,
    );
    // changed behind the app's back, as another replica would: counts within the access cache's lifetime
    await vi.waitFor(
      async () => expect((await asToken(expired.token, '/api/test/pipelines')).statusCode).toBe(401),
      { timeout: STANDING_CACHE_TTL_MS * 3, interval: 50 },
    );
    expect((await asToken('slw_sa_not-a-real-token', '/api/test/pipelines')).statusCode).toBe(401);
  });

  it('changes project permissions: a role per workspace', async () => {
    const sa = (await create('reassigned', [])).json() as { id: string; token: string };
    expect((await asToken(sa.token, '/api/test/pipelines')).statusCode).toBe(404);
    const res = await call(admin, 'PUT', `/api/service-accounts/${sa.id}/workspaces`, {
      workspaces: [{ workspaceId: admin.workspaceId, role: 'developer' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().workspaces).toEqual([{ workspaceId: admin.workspaceId, role: 'developer' }]);
    expect((await asToken(sa.token, '/api/test/pipelines')).statusCode).toBe(200);
    const foreignWs = await call(admin, 'PUT', `/api/service-accounts/${sa.id}/workspaces`, {
      workspaces: [{ workspaceId: foreign.workspaceId, role: 'developer' }],
    });
    expect(foreignWs.statusCode).toBe(404);
    await expectAudited(t, 'service_account.update', { outcome: 'success', target_id: sa.id });
  });

  it('refuses bad input, duplicates, other organisations and non-admins', async () => {
    const post = (payload: object) => call(admin, 'POST', '/api/service-accounts', payload);
    expect((await post({ name: 'x', expiresAt: inDays(-1), workspaces: [] })).statusCode).toBe(400);
    expect((await post({ name: 'x', expiresAt: inDays(400), workspaces: [] })).statusCode).toBe(400);
    expect((await post({ name: 'x', expiresAt: 'tomorrow', workspaces: [] })).json().message).toContain(
      MESSAGES.invalidDate,
    );
    expect(
      (
        await post({
          name: 'x',
          expiresAt: inDays(1),
          workspaces: [{ workspaceId: admin.workspaceId, role: 'god' }],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await post({
          name: 'x',
          expiresAt: inDays(1),
          workspaces: [{ workspaceId: foreign.workspaceId, role: 'viewer' }],
        })
      ).statusCode,
    ).toBe(404);
    expect((await create('twice')).statusCode).toBe(201);
    expect((await create('twice')).statusCode).toBe(409);

    const theirs = (
      await call(foreign, 'POST', '/api/service-accounts', { name: 'theirs', expiresAt: inDays(1) })
    ).json();
    expect((await call(admin, 'DELETE', `/api/service-accounts/${theirs.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/service-accounts')).body).not.toContain(theirs.id);

    const dev = await joinAs(t, admin, 'member', 'developer');
    const denied = await call(dev, 'POST', '/api/service-accounts', { name: 'dev', expiresAt: inDays(1) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    expect((await call(dev, 'GET', '/api/service-accounts')).statusCode).toBe(403);
  });
});
