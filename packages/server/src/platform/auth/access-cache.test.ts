import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SqlAccessStore } from '../../features/access/access-store.js';
import { joinAs } from '../../features/members/team.test-helper.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { STANDING_CACHE_TTL_MS } from './standing-cache.js';

/**
 * The access check reuses a caller's session and standing for a moment; a mutation handled by
 * this process drops them at once, a change made elsewhere (another replica) counts within the
 * cache's lifetime.
 */
describe('access check cache', () => {
  let t: TestApp;
  let admin: TestUser;
  const reads = vi.spyOn(SqlAccessStore.prototype, 'findSessionWithStanding');
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const get = (who: TestUser, url: string) => t.app.inject({ url, headers: who.headers });

  it('reads a session and standing once for a burst of requests', async () => {
    const person = await joinAs(t, admin, 'member', 'developer');
    reads.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => get(person, '/api/workspace/members')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('a role change and a logout count at the very next request', async () => {
    const person = await joinAs(t, admin, 'member', 'developer');
    expect((await get(person, '/api/workspace/members')).statusCode).toBe(200);
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/roles',
      headers: admin.headers,
      payload: { name: 'Pipelines only', grants: [{ permission: 'pipelines:view' }] },
    });
    const change = await t.app.inject({
      method: 'PUT',
      url: `/api/members/${person.userId}/workspaces/${admin.workspaceId}`,
      headers: admin.headers,
      payload: { role: role.json().id },
    });
    expect(change.statusCode).toBe(204);
    expect((await get(person, '/api/workspace/members')).statusCode).toBe(403);

    const logout = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: person.headers });
    expect(logout.statusCode).toBeLessThan(300);
    expect((await get(person, '/api/workspaces')).statusCode).toBe(401);
  });

  it('a change made by another replica counts once the cache lifetime has passed', async () => {
    const person = await joinAs(t, admin, 'member', 'developer');
    expect((await get(person, '/api/workspaces')).statusCode).toBe(200);
    await t.db.database.db.execute(
      sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${person.userId}`,
    );
    await vi.waitFor(async () => expect((await get(person, '/api/workspaces')).statusCode).toBe(401), {
      timeout: STANDING_CACHE_TTL_MS * 3,
      interval: 50,
    });
  });
});
