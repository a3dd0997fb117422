import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@slipway/contracts';
import { startSmtpPeer } from '../../test-support/smtp-peer.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

type Smtp = Awaited<ReturnType<typeof startSmtpPeer>>;
const PASSWORD = 'Launch!pad9';

describe('sign-up, verification and sign-in', () => {
  let t: TestApp;
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startSmtpPeer();
    t = await createTestApp({ SMTP_URL: smtp.url, SLIPWAY_PUBLIC_URL: 'http://slipway.test' });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const codeFrom = (subject: string) => /(\d{6})$/.exec(subject)![1]!;
  const rows = async (q: ReturnType<typeof sql>) =>
    ((await t.db.database.db.execute(q)) as unknown as { rows: Array<Record<string, unknown>> }).rows ??
    ((await t.db.database.db.execute(q)) as unknown as Array<Record<string, unknown>>);

  async function signUp(email: string) {
    const res = await post('/api/auth/signup', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ email, resendAfterSeconds: 60 });
    return codeFrom((await smtp.waitFor(email, /verification code/)).subject);
  }

  it('signs up, mails a 6-digit code, verifies it and signs in with a workspace', async () => {
    const code = await signUp('ada@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const beforeVerify = await post('/api/auth/login', { email: 'ada@example.com', password: PASSWORD });
    expect(beforeVerify.statusCode).toBe(403);
    expect(beforeVerify.json().message).toBe('Email not verified');

    const verified = await post('/api/auth/verify_code', { email: 'ADA@example.com ', code });
    expect(verified.statusCode).toBe(200);
    const { token, projectId } = verified.json();
    expect(projectId).toEqual(expect.any(String));

    const profile = await t.app.inject({ url: '/api/profile', headers: { authorization: token } });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      email: 'ada@example.com',
      firstName: 'Ada',
      organisations: [{ name: "Ada's organisation", role: 'master_admin' }],
      workspaces: [{ id: projectId, name: 'Default', role: 'admin' }],
    });
    // The code is single use.
    expect((await post('/api/auth/verify_code', { email: 'ada@example.com', code })).json().message).toBe(
      MESSAGES.invalidOtp,
    );
  });

  it("answers 'Invalid OTP!' for a wrong code, and wants a new code after 5 wrong ones", async () => {
    const code = await signUp('bob@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await post('/api/auth/verify_code', { email: 'bob@example.com', code: wrong });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(MESSAGES.invalidOtp);
    }
    const locked = await post('/api/auth/verify_code', { email: 'bob@example.com', code });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().message).toBe('Too many wrong codes; ask for a new code');
    // A malformed code is refused by the schema with the same words.
    expect(
      (await post('/api/auth/verify_code', { email: 'bob@example.com', code: '12ab' })).json().message,
    ).toBe(`body.code: ${MESSAGES.invalidOtp}`);
  });

  it('makes a resend wait for the 60-second countdown', async () => {
    await signUp('cy@example.com');
    const res = await post('/api/auth/resend_code', { email: 'cy@example.com' });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(`You can ask for another code in ${res.headers['retry-after']} seconds`);
    await t.db.database.db.execute(
      sql`UPDATE verification_codes SET created_at = now() - interval '61 seconds' WHERE user_id = (SELECT id FROM users WHERE email = 'cy@example.com')`,
    );
    expect((await post('/api/auth/resend_code', { email: 'cy@example.com' })).statusCode).toBe(200);
    // Unknown addresses get the same answer and no mail.
    expect((await post('/api/auth/resend_code', { email: 'nobody@example.com' })).statusCode).toBe(200);
  });

  it("answers 'Invalid credentials' for a wrong password and an unknown e-mail alike", async () => {
    const code = await signUp('dee@example.com');
    await post('/api/auth/verify_code', { email: 'dee@example.com', code });
    const wrongPassword = await post('/api/auth/login', {
      email: 'dee@example.com',
      password: 'Wrong!pass1',
    });
    const unknown = await post('/api/auth/login', { email: 'ghost@example.com', password: 'Wrong!pass1' });
    for (const res of [wrongPassword, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(MESSAGES.invalidCredentials);
    }
  });

  it('validates with the spec messages, naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{ password: 'x' }, `body.email: ${MESSAGES.emailRequired}`],
      [{ email: 'not-an-email', password: 'x' }, `body.email: ${MESSAGES.invalidEmail}`],
      [{ email: 'a@example.com', password: '' }, `body.password: ${MESSAGES.passwordRequired}`],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/api/auth/login', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const weak = await post('/api/auth/signup', {
      firstName: 'A',
      lastName: 'B',
      email: 'w@example.com',
      password: 'password',
    });
    expect(weak.json().details).toContainEqual({
      path: 'body.password',
      message:
        'Password must have at least 8 characters, one uppercase letter, one lowercase letter, one number and one special character',
    });
    const badName = await post('/api/auth/signup', {
      firstName: '-Ada',
      lastName: 'B',
      email: 'n@example.com',
      password: PASSWORD,
    });
    expect(badName.json().details[0].path).toBe('body.firstName');
  });

  it('ends the session on logout and refuses the token after', async () => {
    const code = await signUp('eve@example.com');
    const { token } = (await post('/api/auth/verify_code', { email: 'eve@example.com', code })).json();
    const headers = { authorization: `Bearer ${token}` };
    expect((await t.app.inject({ url: '/api/profile', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(204);
    const after = await t.app.inject({ url: '/api/profile', headers });
    expect(after.statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/profile', headers: { authorization: 'Bearer nonsense' } })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: '/api/profile' })).statusCode).toBe(401);
  });

  it('refuses a token presented with another browser fingerprint', async () => {
    const code = await signUp('fay@example.com');
    const res = await post(
      '/api/auth/verify_code',
      { email: 'fay@example.com', code },
      { 'x-browserfingerprint': 'fp-1' },
    );
    const { token } = res.json();
    const ask = (fp?: string) =>
      t.app.inject({
        url: '/api/profile',
        headers: { authorization: token, ...(fp ? { 'X-BrowserFingerprint': fp } : {}) },
      });
    expect((await ask('fp-1')).statusCode).toBe(200);
    expect((await ask('fp-2')).statusCode).toBe(401);
    expect((await ask()).statusCode).toBe(401);
  });

  it("resets a forgotten password through the mailed link, once, with 'Check your email' for anyone", async () => {
    const code = await signUp('gus@example.com');
    const { token: oldToken } = (
      await post('/api/auth/verify_code', { email: 'gus@example.com', code })
    ).json();
    for (const email of ['gus@example.com', 'nobody@example.com']) {
      const res = await post('/api/auth/forgot_password', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.checkYourEmail });
    }
    const mail = await smtp.waitFor('gus@example.com', /Reset your Slipway password/);
    const link = /http:\/\/slipway\.test\/reset-password\?token=([\w-]+)/.exec(mail.text);
    expect(link).not.toBeNull();
    const resetToken = link![1]!;
    const mismatch = await post('/api/auth/reset_password', {
      token: resetToken,
      password: 'New!pass123',
      confirmPassword: 'Other!pass1',
    });
    expect(mismatch.json().message).toBe(`body.confirmPassword: ${MESSAGES.passwordsMustMatch}`);
    const ok = await post('/api/auth/reset_password', {
      token: resetToken,
      password: 'New!pass123',
      confirmPassword: 'New!pass123',
    });
    expect(ok.statusCode).toBe(200);
    const again = await post('/api/auth/reset_password', {
      token: resetToken,
      password: 'New!pass123',
      confirmPassword: 'New!pass123',
    });
    expect(again.statusCode).toBe(400);
    expect((await post('/api/auth/login', { email: 'gus@example.com', password: PASSWORD })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/api/auth/login', { email: 'gus@example.com', password: 'New!pass123' })).statusCode,
    ).toBe(200);
    // The reset ended the sessions that existed before it.
    expect(
      (await t.app.inject({ url: '/api/profile', headers: { authorization: oldToken } })).statusCode,
    ).toBe(401);
  });

  it('changes the password in the profile, keeping this session and ending the others', async () => {
    const code = await signUp('hal@example.com');
    const { token: other } = (await post('/api/auth/verify_code', { email: 'hal@example.com', code })).json();
    const { token } = (
      await post('/api/auth/login', { email: 'hal@example.com', password: PASSWORD })
    ).json();
    const headers = { authorization: token };
    const wrong = await post(
      '/api/profile/password',
      { currentPassword: 'nope', newPassword: 'Fresh!pass1', confirmPassword: 'Fresh!pass1' },
      headers,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Current password is incorrect');
    const missing = await post(
      '/api/profile/password',
      { currentPassword: '', newPassword: '', confirmPassword: '' },
      headers,
    );
    expect(missing.json().details.map((d: { message: string }) => d.message)).toEqual(
      expect.arrayContaining([
        MESSAGES.currentPasswordRequired,
        MESSAGES.newPasswordRequired,
        MESSAGES.confirmPasswordRequired,
      ]),
    );
    const ok = await post(
      '/api/profile/password',
      { currentPassword: PASSWORD, newPassword: 'Fresh!pass1', confirmPassword: 'Fresh!pass1' },
      headers,
    );
    expect(ok.statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/profile', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/profile', headers: { authorization: other } })).statusCode).toBe(
      401,
    );
  });

  it('slows down repeated failures per account with growing delays', async () => {
    const code = await signUp('ivy@example.com');
    await post('/api/auth/verify_code', { email: 'ivy@example.com', code });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await post('/api/auth/login', { email: 'ivy@example.com', password: 'Wrong!pass1' })).statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toContain(429);
    // Even the right password waits while the account is blocked.
    const blocked = await post('/api/auth/login', { email: 'ivy@example.com', password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(blocked.json().message).toBe(
      `Too many attempts; try again in ${blocked.headers['retry-after']} seconds`,
    );
  });

  it('records every auth event in the audit trail, and the trail cannot be altered', async () => {
    const events = await rows(
      sql`SELECT action, outcome, actor_type, actor_label, ip FROM audit_events ORDER BY id`,
    );
    const seen = new Set(events.map((e) => `${e.action}:${e.outcome}`));
    for (const e of [
      'auth.signup:success',
      'auth.verify_code:success',
      'auth.verify_code:failure',
      'auth.login:success',
      'auth.login:failure',
      'auth.logout:success',
      'auth.password_change:success',
      'auth.reset_password:success',
      'auth.forgot_password:success',
    ]) {
      expect(seen, e).toContain(e);
    }
    const failure = events.find(
      (e) => e.action === 'auth.login' && e.outcome === 'failure' && e.actor_label === 'ghost@example.com',
    );
    expect(failure).toMatchObject({ actor_type: 'anonymous', ip: '127.0.0.1' });
    await expect(
      t.db.database.db.execute(sql`UPDATE audit_events SET outcome = 'success'`),
    ).rejects.toThrow();
    await expect(t.db.database.db.execute(sql`DELETE FROM audit_events`)).rejects.toThrow();
  });
});
