import { sql } from 'drizzle-orm';
import { INVITE_INVALID_MESSAGE, MESSAGES } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../platform/keys.js';
import { createSignedInUser, TEST_PASSWORD, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, inviteTokenMailedTo, joinAs, query } from './team.test-helper.js';

const NEW_PASSWORD = 'N3w!passw0rd';

describe('invites', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ SLIPWAY_PUBLIC_URL: 'https://slipway.example.com' });
    admin = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const invite = (who: TestUser, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/invites', headers: who.headers, payload });
  const accept = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/invites/accept', payload, headers });

  it('invites a new person, who accepts with name and password and is signed in to the organisation', async () => {
    const res = await invite(admin, {
      email: 'New.Person@Example.com',
      workspaceId: admin.workspaceId,
      workspaceRole: 'viewer',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as { id: string; email: string };
    expect(created).toMatchObject({
      email: 'new.person@example.com',
      organisationRole: 'member',
      workspaceRole: 'viewer',
    });
    const token = inviteTokenMailedTo(t, 'new.person@example.com');
    // only the hash is stored
    const [row] = await query(t, sql`SELECT token_hash FROM invites WHERE id = ${created.id}`);
    expect(row!.token_hash).toBe(hashToken(token));

    const pending = await t.app.inject({ url: '/api/invites', headers: admin.headers });
    expect(pending.json()).toEqual([expect.objectContaining({ id: created.id })]);

    const lookup = await t.app.inject({ url: `/api/invites/lookup?token=${encodeURIComponent(token)}` });
    expect(lookup.json()).toEqual({
      email: 'new.person@example.com',
      organisationName: `Org of ${admin.email}`,
      existingUser: false,
    });

    expect((await accept({ token, firstName: 'New', lastName: 'Person', password: 'weak' })).statusCode).toBe(
      400,
    );
    const ok = await accept({ token, firstName: 'New', lastName: 'Person', password: NEW_PASSWORD });
    expect(ok.statusCode).toBe(200);
    const { token: session, projectId } = ok.json() as { token: string; projectId: string };
    expect(projectId).toBe(admin.workspaceId);
    const profile = await t.app.inject({ url: '/api/profile', headers: { authorization: session } });
    expect(profile.json()).toMatchObject({
      email: 'new.person@example.com',
      firstName: 'New',
      organisationId: admin.organisationId,
      workspaces: [expect.objectContaining({ id: admin.workspaceId, role: 'viewer' })],
    });
    // the chosen password works for sign-in
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new.person@example.com', password: NEW_PASSWORD },
    });
    expect(login.statusCode).toBe(200);

    const again = await accept({ token, firstName: 'New', lastName: 'Person', password: NEW_PASSWORD });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(INVITE_INVALID_MESSAGE);
    expect((await t.app.inject({ url: `/api/invites/lookup?token=${token}` })).statusCode).toBe(404);

    await expectAudited(t, 'member.invite', {
      outcome: 'success',
      target_type: 'invite',
      target_id: created.id,
    });
    await expectAudited(
      t,
      'member.invite_accept',
      {
        outcome: 'success',
        target_id: created.id,
        organisation_id: admin.organisationId,
      },
      { outcome: 'failure' },
    );
  });

  it('lets an existing person accept with their session or their password, not with another', async () => {
    const other = await createSignedInUser(t.app, t.db.database);
    expect((await invite(admin, { email: other.email, organisationRole: 'account_admin' })).statusCode).toBe(
      201,
    );
    const token = inviteTokenMailedTo(t, other.email);
    expect((await t.app.inject({ url: `/api/invites/lookup?token=${token}` })).json()).toMatchObject({
      existingUser: true,
    });

    expect((await accept({ token })).statusCode).toBe(401);
    const wrong = await accept({ token, password: 'Wr0ng!password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(MESSAGES.invalidCredentials);
    // Guessing through the invite meets the sign-in delays: after five failures, 429.
    const guesses: number[] = [];
    for (let i = 0; i < 5; i++) guesses.push((await accept({ token, password: `Guess!${i}aA` })).statusCode);
    expect(guesses).toContain(429);
    await t.db.database.db.execute(sql`DELETE FROM auth_throttle`);
    const stranger = await createSignedInUser(t.app, t.db.database);
    expect((await accept({ token }, { authorization: stranger.token })).statusCode).toBe(401);

    const ok = await accept({ token }, { authorization: other.token });
    expect(ok.statusCode).toBe(200);
    const orgs = await t.app.inject({
      url: '/api/organisations',
      headers: { authorization: ok.json().token },
    });
    expect(orgs.json()).toContainEqual({
      id: admin.organisationId,
      name: expect.any(String),
      role: 'account_admin',
      current: true,
      maxRunMinutes: null,
    });

    const third = await createSignedInUser(t.app, t.db.database);
    await invite(admin, { email: third.email });
    const byPassword = await accept({ token: inviteTokenMailedTo(t, third.email), password: TEST_PASSWORD });
    expect(byPassword.statusCode).toBe(200);
  });

  it('refuses expired and revoked invites', async () => {
    const expired = await invite(admin, { email: 'late@example.com' });
    await query(
      t,
      sql`UPDATE invites SET expires_at = now() - interval '1 minute' WHERE id = ${expired.json().id}`,
    );
    const late = await accept({
      token: inviteTokenMailedTo(t, 'late@example.com'),
      firstName: 'L',
      lastName: 'T',
      password: NEW_PASSWORD,
    });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe(INVITE_INVALID_MESSAGE);

    const revoked = await invite(admin, { email: 'gone@example.com' });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/invites/${revoked.json().id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
    const gone = await accept({
      token: inviteTokenMailedTo(t, 'gone@example.com'),
      firstName: 'G',
      lastName: 'O',
      password: NEW_PASSWORD,
    });
    expect(gone.statusCode).toBe(404);
    await expectAudited(t, 'member.invite_revoke', { outcome: 'success', target_id: revoked.json().id });
    const pending = (await t.app.inject({ url: '/api/invites', headers: admin.headers })).json() as Array<{
      email: string;
    }>;
    expect(pending.map((i) => i.email)).not.toContain('gone@example.com');
    expect(pending.map((i) => i.email)).not.toContain('late@example.com');
  });

  it('refuses a developer (403), members already in, and workspaces of another organisation', async () => {
    const dev = await joinAs(t, admin, 'member', 'developer');
    const denied = await invite(dev, { email: 'x@example.com' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    await expectAudited(t, 'member.invite', { outcome: 'denied' });

    expect((await invite(admin, { email: dev.email })).statusCode).toBe(409);
    const foreign = await createSignedInUser(t.app, t.db.database);
    expect(
      (await invite(admin, { email: 'y@example.com', workspaceId: foreign.workspaceId })).statusCode,
    ).toBe(404);
    expect(
      (await invite(admin, { email: 'y@example.com', workspaceId: admin.workspaceId, workspaceRole: 'boss' }))
        .statusCode,
    ).toBe(400);
    expect(
      (await invite(admin, { email: 'y@example.com', organisationRole: 'master_admin' })).statusCode,
    ).toBe(400);
    const revokeForeign = await t.app.inject({
      method: 'DELETE',
      url: `/api/invites/${(await invite(foreign, { email: 'z@example.com' })).json().id}`,
      headers: admin.headers,
    });
    expect(revokeForeign.statusCode).toBe(404);
  });
});
