import { desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authThrottle } from '../../platform/database/schema.js';
import { createSignedInUser, TEST_PASSWORD, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { ACCOUNT_SLOWDOWN, attemptKeys, delayAfter, PER_ACCOUNT, PER_IP } from './throttle.js';

/**
 * Sign-in throttling, GitLab / Devise style: an address's own failures (on one account, or
 * overall) refuse it; failures on an account from other addresses only slow it down.
 */
describe('sign-in throttle', () => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ SLIPWAY_TRUST_PROXY: 'true' });
    alice = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (ip: string, email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-forwarded-for': ip },
      payload: { email, password },
    });
  const expect429 = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(String(res.headers['retry-after'])).toMatch(/^[1-9]\d*$/);
    const seconds = Number(res.headers['retry-after']);
    expect(JSON.parse(res.body).message).toBe(`Too many attempts; try again in ${seconds} seconds`);
  };

  it('keys each rule in the key column', () => {
    expect(attemptKeys('login', '10.0.0.1', 'a@x.test')).toEqual({
      ip: 'login:ip:10.0.0.1',
      ipAccount: 'login:ipacct:10.0.0.1:a@x.test',
      account: 'login:acct:a@x.test',
    });
    expect(delayAfter(PER_ACCOUNT.freeFailures - 1, PER_ACCOUNT)).toBe(0);
    expect(delayAfter(PER_ACCOUNT.freeFailures, PER_ACCOUNT)).toBeGreaterThan(0);
    expect(delayAfter(100, ACCOUNT_SLOWDOWN)).toBe(ACCOUNT_SLOWDOWN.maxDelayMs);
  });

  it('refuses an address for its own failures on an account, with Retry-After, even the right password', async () => {
    for (let i = 0; i < PER_ACCOUNT.freeFailures; i++)
      expect((await login('198.51.100.1', alice.email, 'Wrong!pass1')).statusCode).toBe(401);
    expect429(await login('198.51.100.1', alice.email, 'Wrong!pass1'));
    expect429(await login('198.51.100.1', alice.email, TEST_PASSWORD));
  });

  it("lets the right password in from a clean address despite other addresses' failures, only slowed down", async () => {
    // the account now has failures from 198.51.100.1; another address is not refused for them
    const started = Date.now();
    const ok = await login('198.51.100.2', alice.email, TEST_PASSWORD);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN.baseDelayMs - 20);
    // many addresses, a few tries each: each gets its own free tries; none locks the person out
    for (const ip of ['198.51.100.3', '198.51.100.4'])
      expect((await login(ip, alice.email, 'Wrong!pass1')).statusCode).toBe(401);
    expect((await login('198.51.100.5', alice.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses one address trying many accounts', async () => {
    const bob = await createSignedInUser(t.app, t.db.database);
    for (let i = 0; i < PER_IP.freeFailures; i++)
      expect((await login('203.0.113.9', `nobody${i}@example.com`, 'Wrong!pass1')).statusCode).toBe(401);
    expect429(await login('203.0.113.9', 'nobody-else@example.com', 'Wrong!pass1'));
    // even a correct sign-in from that address waits
    expect429(await login('203.0.113.9', bob.email, TEST_PASSWORD));
    // another address is not affected
    expect((await login('203.0.113.10', bob.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("clears the address's counters on success, overall and on the account, but not the account's", async () => {
    const carol = await createSignedInUser(t.app, t.db.database);
    const ip = '192.0.2.77';
    for (let i = 0; i < 3; i++) await login(ip, `stranger${i}@example.com`, 'Wrong!pass1');
    for (let i = 0; i < 2; i++) await login(ip, carol.email, 'Wrong!pass1');
    const keys = attemptKeys('login', ip, carol.email.toLowerCase());
    const counter = async (key: string) =>
      (await t.db.database.db.select().from(authThrottle).where(eq(authThrottle.key, key)))[0]?.failures;
    expect(await counter(keys.ip)).toBe(5);
    expect(await counter(keys.ipAccount)).toBe(2);
    const before = await counter(keys.account);
    expect((await login(ip, carol.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect(await counter(keys.ip)).toBeUndefined();
    expect(await counter(keys.ipAccount)).toBeUndefined();
    expect(await counter(keys.account)).toBe(before);
    // the address's free tries are whole again: 4 more failures on the account are plain 401s
    for (let i = 0; i < PER_ACCOUNT.freeFailures - 1; i++)
      expect((await login(ip, carol.email, 'Wrong!pass1')).statusCode).toBe(401);
    expect(await counter(keys.ipAccount)).toBe(PER_ACCOUNT.freeFailures - 1);
    expect(await counter(keys.ip)).toBe(PER_ACCOUNT.freeFailures - 1);
    // the address's failures on other accounts stay counted on those accounts
    const others = await t.db.database.db
      .select()
      .from(authThrottle)
      .where(like(authThrottle.key, `login:ipacct:${ip}:stranger%`));
    expect(others).toHaveLength(3);
  });

  it('takes the client address from X-Forwarded-For only with SLIPWAY_TRUST_PROXY', async () => {
    await login('198.51.100.200', 'ghost@example.com', 'Wrong!pass1');
    const [trusted] = await t.db.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'auth.login'))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(trusted?.ip).toBe('198.51.100.200');

    const plain = await createTestApp();
    try {
      // without it, a forged header cannot dodge the per-address counters
      for (let i = 0; i < PER_ACCOUNT.freeFailures; i++) {
        const res = await plain.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers: { 'x-forwarded-for': `198.51.100.${i + 10}` },
          payload: { email: 'victim@example.com', password: 'Wrong!pass1' },
        });
        expect(res.statusCode).toBe(401);
      }
      const refused = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'x-forwarded-for': '198.51.100.99' },
        payload: { email: 'victim@example.com', password: 'Wrong!pass1' },
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      const [row] = await plain.db.database.db
        .select()
        .from(auditEvents)
        .orderBy(desc(auditEvents.id))
        .limit(1);
      expect(row?.ip).toBe('127.0.0.1');
    } finally {
      await plain.close();
    }
  });
});
