import { sql } from 'drizzle-orm';
import { MAX_RUN_MINUTES_RULE_MESSAGE, MESSAGES } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs, query } from '../members/team.test-helper.js';

describe("an organisation's cap on a run's duration (maxRunMinutes)", () => {
  let t: TestApp;
  let owner: TestUser;
  let foreign: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    foreign = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const put = (who: TestUser, id: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/organisations/${id}`, headers: who.headers, payload });
  const current = async (who: TestUser) =>
    (
      (await t.app.inject({ url: '/api/organisations', headers: who.headers })).json() as Array<{
        current: boolean;
        maxRunMinutes: number | null;
        name: string;
      }>
    ).find((o) => o.current)!;

  it('is none at first, and an organisation admin sets and clears it', async () => {
    expect(await current(owner)).toMatchObject({ maxRunMinutes: null });
    const set = await put(owner, owner.organisationId, { maxRunMinutes: 90 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ id: owner.organisationId, maxRunMinutes: 90, role: 'master_admin' });
    expect(await current(owner)).toMatchObject({ maxRunMinutes: 90, name: `Org of ${owner.email}` });

    // an account admin may too; the name is left as it was
    const accountAdmin = await joinAs(t, owner, 'account_admin');
    const byAccountAdmin = await put(accountAdmin, owner.organisationId, { maxRunMinutes: 10_080 });
    expect(byAccountAdmin.statusCode).toBe(200);
    expect(byAccountAdmin.json()).toMatchObject({ maxRunMinutes: 10_080, name: `Org of ${owner.email}` });

    const cleared = await put(owner, owner.organisationId, { maxRunMinutes: null });
    expect(cleared.json()).toMatchObject({ maxRunMinutes: null });
    // renaming alone keeps the cap
    await put(owner, owner.organisationId, { maxRunMinutes: 30 });
    expect((await put(owner, owner.organisationId, { name: 'Capped' })).json()).toMatchObject({
      name: 'Capped',
      maxRunMinutes: 30,
    });

    await expectAudited(t, 'organisation.update', {
      outcome: 'success',
      target_type: 'organisation',
      target_id: owner.organisationId,
      actor_id: accountAdmin.userId,
    });
    await vi.waitFor(async () => {
      const rows = await query(
        t,
        sql`SELECT detail FROM audit_events WHERE action = 'organisation.update'
          AND target_id = ${owner.organisationId} AND outcome = 'success' ORDER BY id`,
      );
      expect(rows.map((r) => r.detail)).toEqual(
        expect.arrayContaining([{ maxRunMinutes: 90 }, { maxRunMinutes: 10_080 }, { maxRunMinutes: null }]),
      );
    });
  });

  it('is shown to members, who may not change it (403, audited as denied)', async () => {
    const member = await joinAs(t, owner, 'member', 'project_admin');
    expect(await current(member)).toMatchObject({ maxRunMinutes: 30 });
    const denied = await put(member, owner.organisationId, { maxRunMinutes: 5 });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    expect(await current(owner)).toMatchObject({ maxRunMinutes: 30 });
    await expectAudited(t, 'organisation.update', {
      outcome: 'denied',
      actor_id: member.userId,
      organisation_id: owner.organisationId,
    });
  });

  it('refuses values outside 1…10080 minutes, naming the field and the rule (400)', async () => {
    for (const maxRunMinutes of [0, -5, 10_081, 1.5, '60', true]) {
      const res = await put(owner, owner.organisationId, { maxRunMinutes });
      expect(res.statusCode, String(maxRunMinutes)).toBe(400);
      expect(res.json().details).toEqual([
        expect.objectContaining({ path: 'body.maxRunMinutes', message: MAX_RUN_MINUTES_RULE_MESSAGE }),
      ]);
    }
    expect((await put(owner, owner.organisationId, {})).statusCode).toBe(400);
    expect(await current(owner)).toMatchObject({ maxRunMinutes: 30 });
  });

  it("answers 404 for another organisation's settings", async () => {
    const res = await put(owner, foreign.organisationId, { maxRunMinutes: 1 });
    expect(res.statusCode).toBe(404);
    expect(await current(foreign)).toMatchObject({ maxRunMinutes: null });
  });
});
