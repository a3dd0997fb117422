import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, MESSAGES, TOTAL_COUNT_HEADER } from '@slipway/contracts';
import { auditEvents } from '../../platform/database/schema.js';
import {
  addToOrganisation,
  createSignedInUser,
  signIn,
  TEST_PASSWORD,
  type TestUser,
} from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { parseCsv } from './parse-csv.test-helper.js';

type Row = Record<string, unknown>;

describe('audit trail API', () => {
  let t: TestApp;
  let admin: TestUser;
  const agent = 'audit-test-agent/1.0';

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(async () => {
    await t.close();
  });

  const list = async (query: string, who: TestUser = admin) => {
    const res = await t.app.inject({ url: `/api/audit?${query}`, headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return { rows: res.json() as Row[], total: Number(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]) };
  };

  it('records a failed sign-in with the attempted e-mail, the IP and a failure outcome', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: 'Wrong!pass1' },
      headers: { 'user-agent': agent, 'x-browserfingerprint': 'fp-1' },
      remoteAddress: '10.1.2.3',
    });
    expect(res.statusCode).toBe(401);
    const { rows } = await list('action=auth.login&outcome=failure');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorType: 'anonymous',
      actorLabel: admin.email,
      ip: '10.1.2.3',
      userAgent: agent,
      fingerprint: 'fp-1',
      outcome: 'failure',
      statusCode: 401,
    });
  });

  it('records successful sign-ins, found by the actor filter too', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: admin.email, password: TEST_PASSWORD },
      remoteAddress: '10.9.9.9',
    });
    const { rows } = await list(`action=auth.login&outcome=success&actor=${admin.userId}`);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({
      actorLabel: admin.email,
      ip: '10.9.9.9',
      outcome: 'success',
      statusCode: 200,
    });
  });

  it('records logout with the signed-in actor and organisation', async () => {
    const session = await signIn(t.app, admin);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: session.headers,
      remoteAddress: '10.4.4.4',
    });
    expect(res.statusCode).toBe(204);
    const { rows } = await list('action=auth.logout');
    expect(rows[0]).toMatchObject({
      actorType: 'user',
      actorId: admin.userId,
      organisationId: admin.organisationId,
      ip: '10.4.4.4',
      outcome: 'success',
    });
  });

  it('records password changes, successful and refused', async () => {
    const other = await createSignedInUser(t.app, t.db.database);
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/profile/password',
        headers: other.headers,
        payload: { currentPassword, newPassword: 'N3w!password', confirmPassword: 'N3w!password' },
      });
    expect((await change('Not!mine1')).statusCode).toBe(400);
    expect((await change(TEST_PASSWORD)).statusCode).toBe(204);
    const { rows } = await list('action=auth.password_change&_order=ASC', other);
    expect(rows.map((r) => [r.outcome, r.actorId, r.targetType, r.targetId])).toEqual([
      ['failure', other.userId, 'user', other.userId],
      ['success', other.userId, 'user', other.userId],
    ]);
  });

  it('keeps organisations apart and refuses members without audit:view', async () => {
    const stranger = await createSignedInUser(t.app, t.db.database);
    const { rows } = await list('', stranger);
    expect(
      rows.every((r) => r.organisationId === stranger.organisationId || r.actorLabel === stranger.email),
    ).toBe(true);
    expect(rows.some((r) => r.actorLabel === admin.email)).toBe(false);

    const member = await createSignedInUser(t.app, t.db.database);
    await addToOrganisation(t.db.database, {
      userId: member.userId,
      organisationId: admin.organisationId,
      role: 'member',
    });
    await t.db.database.db.execute(
      sql`UPDATE sessions SET organisation_id = ${admin.organisationId} WHERE user_id = ${member.userId}`,
    );
    const refused = await t.app.inject({ url: '/api/audit', headers: member.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.actionNotAllowed);
    expect((await t.app.inject({ url: '/api/audit' })).statusCode).toBe(401);
  });

  describe('filters and ranges', () => {
    const old = (at: string, extra: Partial<typeof auditEvents.$inferInsert> = {}) =>
      t.db.database.db.insert(auditEvents).values({
        at: new Date(at),
        organisationId: admin.organisationId,
        workspaceId: admin.workspaceId,
        actorType: 'user',
        actorId: admin.userId,
        actorLabel: admin.email,
        action: 'pipelines.run',
        targetType: 'pipeline',
        targetId: 'p-1',
        outcome: 'success',
        statusCode: 200,
        ...extra,
      });

    beforeAll(async () => {
      await old('2020-01-15T10:00:00Z');
      await old('2020-02-29T23:59:59Z', { targetId: 'p-2', outcome: 'denied', statusCode: 403 });
      await old(new Date(Date.now() - 60 * 60 * 1000).toISOString(), {
        targetId: 'p-3',
        workspaceId: randomUUID(),
      });
    });

    it('filters by action, target, outcome and workspace', async () => {
      expect((await list('action=pipelines.run')).total).toBe(3);
      expect((await list('targetType=pipeline&targetId=p-2')).rows.map((r) => r.outcome)).toEqual(['denied']);
      expect((await list('action=pipelines.run&outcome=denied')).total).toBe(1);
      expect((await list(`action=pipelines.run&workspaceId=${admin.workspaceId}`)).total).toBe(2);
    });

    it('applies the named date ranges', async () => {
      expect((await list('action=pipelines.run&range=last_7_days')).rows.map((r) => r.targetId)).toEqual([
        'p-3',
      ]);
      expect((await list('action=pipelines.run&range=this_year')).total).toBeGreaterThanOrEqual(1);
      expect((await list('action=pipelines.run&range=last_6_months')).rows.map((r) => r.targetId)).toEqual([
        'p-3',
      ]);
      expect((await list('action=auth.login&range=last_month')).total).toBe(0);
    });

    it('applies explicit from/to, a bare to-date covering its whole day', async () => {
      expect(
        (await list('action=pipelines.run&from=2020-01-01&to=2020-02-29')).rows.map((r) => r.targetId),
      ).toEqual(['p-2', 'p-1']);
      expect((await list('action=pipelines.run&from=2020-01-01&to=2020-02-29T00:00:00Z')).total).toBe(1);
    });

    it("answers 'Invalid date' for a bad date", async () => {
      for (const bad of ['2020-02-30', 'yesterday', '2020-13-01']) {
        const res = await t.app.inject({ url: `/api/audit?from=${bad}`, headers: admin.headers });
        expect(res.statusCode).toBe(400);
        expect(res.json().details[0]).toEqual({ path: 'querystring.from', message: MESSAGES.invalidDate });
      }
    });

    it('pages with _start/_end and counts in X-Total-Count', async () => {
      const all = await list('_start=0&_end=100');
      const page = await list('_start=1&_end=3');
      expect(page.total).toBe(all.total);
      expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(1, 3).map((r) => r.id));
      expect(all.rows.map((r) => r.id)).toEqual(
        [...all.rows.map((r) => r.id as number)].sort((a, b) => b - a),
      );
    });

    it('exports CSV that parses back, with formulas neutralised', async () => {
      await old('2020-03-01T00:00:00Z', {
        action: 'csv.check',
        actorLabel: '=HYPERLINK("http://evil","x")',
        userAgent: 'agent, with "quotes"\nand a newline',
        targetId: '@SUM(A1)',
      });
      const res = await t.app.inject({
        url: '/api/audit/export.csv?action=csv.check',
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-.*\.csv"$/);
      const rows = parseCsv(res.body);
      expect(rows[0]).toEqual([...AUDIT_CSV_COLUMNS]);
      expect(rows).toHaveLength(2);
      const cell = (name: (typeof AUDIT_CSV_COLUMNS)[number]) => rows[1]![AUDIT_CSV_COLUMNS.indexOf(name)];
      expect(cell('time')).toBe('2020-03-01T00:00:00.000Z');
      expect(cell('actor')).toBe(`'=HYPERLINK("http://evil","x")`);
      expect(cell('user agent')).toBe('agent, with "quotes"\nand a newline');
      expect(cell('target id')).toBe(`'@SUM(A1)`);
      expect(cell('organisation')).toBe(admin.organisationId);

      const everything = parseCsv(
        (await t.app.inject({ url: '/api/audit/export.csv', headers: admin.headers })).body,
      );
      expect(everything.length - 1).toBe((await list('')).total);
    });
  });

  describe('records cannot be changed or deleted', () => {
    it('the database refuses UPDATE, DELETE and TRUNCATE', async () => {
      const db = t.db.database.db;
      const refusal = (q: ReturnType<typeof sql>) =>
        db.execute(q).then(
          () => 'accepted',
          (err: Error & { cause?: Error }) => `${err.message} ${err.cause?.message ?? ''}`,
        );
      expect(await refusal(sql`UPDATE audit_events SET action = 'tampered'`)).toMatch(
        /audit records cannot be changed or deleted/,
      );
      expect(await refusal(sql`DELETE FROM audit_events`)).toMatch(
        /audit records cannot be changed or deleted/,
      );
      expect(await refusal(sql`TRUNCATE audit_events`)).toMatch(/audit records cannot be changed or deleted/);
      const [n] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditEvents)
        .where(sql`action = 'tampered'`);
      expect(n?.n).toBe(0);
    });

    it('the API has no route that changes or deletes them', async () => {
      for (const url of ['/api/audit', '/api/audit/:id', '/api/audit/export.csv']) {
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
          expect(t.app.hasRoute({ method, url }), `${method} ${url}`).toBe(false);
        }
      }
      const res = await t.app.inject({ method: 'DELETE', url: '/api/audit/1', headers: admin.headers });
      expect(res.statusCode).toBe(404);
    });
  });
});
