import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextTourState, TOUR_SERVER_STEPS } from '@slipway/contracts';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs, query } from '../members/team.test-helper.js';

const GET = '/api/admin/onboarding/getTourStatus';
const SET = '/api/admin/onboarding/setTourStatus';

describe('guided tour status (admin/onboarding)', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ada = await createSignedInUser(t.app, t.db.database);
    bob = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const get = async (who: TestUser) => {
    const res = await t.app.inject({ url: GET, headers: who.headers });
    expect(res.statusCode).toBe(200);
    return res.json() as { Onboardingstate: { is_onboarding_completed: boolean; currentstep: number } };
  };
  const set = (who: TestUser, Onboardingstate: object) =>
    t.app.inject({ method: 'POST', url: SET, headers: who.headers, payload: { Onboardingstate } });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: GET })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: SET, payload: { Onboardingstate: { currentstep: 8 } } }))
        .statusCode,
    ).toBe(401);
  });

  it('starts at step 0, not completed', async () => {
    expect(await get(ada)).toEqual({ Onboardingstate: { is_onboarding_completed: false, currentstep: 0 } });
  });

  it('moves forward only, unless restarted, and keeps each person apart', async () => {
    let res = await set(ada, { currentstep: TOUR_SERVER_STEPS.proceedToPipeline });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Onboardingstate: { is_onboarding_completed: false, currentstep: 8 } });
    res = await set(ada, { currentstep: TOUR_SERVER_STEPS.runClick });
    expect(res.json().Onboardingstate.currentstep).toBe(15);
    // a stale client sending an earlier step does not move the tour back
    res = await set(ada, { currentstep: TOUR_SERVER_STEPS.initiatePipelineRun });
    expect(res.json().Onboardingstate.currentstep).toBe(15);
    expect((await get(ada)).Onboardingstate.currentstep).toBe(15);
    expect((await get(bob)).Onboardingstate.currentstep).toBe(0);
    res = await set(ada, { currentstep: 8, restart: true });
    expect(res.json()).toEqual({ Onboardingstate: { is_onboarding_completed: false, currentstep: 8 } });
    await expectAudited(t, 'onboarding.tour_status', {
      outcome: 'success',
      target_type: 'onboarding_state',
      target_id: ada.userId,
      actor_id: ada.userId,
    });
  });

  it('marks onboarding completed when the counter reaches 23 (server step 27), or on skip', async () => {
    await set(ada, { currentstep: 8, restart: true });
    const res = await set(ada, { currentstep: TOUR_SERVER_STEPS.microserviceOverview });
    expect(res.json()).toEqual({ Onboardingstate: { is_onboarding_completed: true, currentstep: 27 } });
    const skipped = await set(bob, { is_onboarding_completed: true });
    expect(skipped.json()).toEqual({ Onboardingstate: { is_onboarding_completed: true, currentstep: 0 } });
    expect(await get(bob)).toEqual({ Onboardingstate: { is_onboarding_completed: true, currentstep: 0 } });
    // a restart clears the completed flag
    const again = await set(bob, { currentstep: 8, restart: true });
    expect(again.json()).toEqual({ Onboardingstate: { is_onboarding_completed: false, currentstep: 8 } });
  });

  it('audits one record per start, skip and finish, not each step between', async () => {
    const cleo = await createSignedInUser(t.app, t.db.database);
    const S = TOUR_SERVER_STEPS;
    // a first sign-in starts the tour at 4, then every step of the table up to the overview
    const steps = [4, ...Object.values(S), S.microserviceOverview];
    for (const currentstep of steps) expect((await set(cleo, { currentstep })).statusCode).toBe(200);
    // the web app marks completion after the last step: no change, no record
    await set(cleo, { currentstep: 27, is_onboarding_completed: true });
    await set(cleo, { currentstep: 4, restart: true });
    await set(cleo, { currentstep: 9 });
    await set(cleo, { is_onboarding_completed: true });
    // a refused request is recorded all the same
    expect((await set(cleo, { currentstep: 99 })).statusCode).toBe(400);
    const rows = await query(
      t,
      sql`SELECT outcome, detail FROM audit_events WHERE action = 'onboarding.tour_status' AND actor_id = ${cleo.userId} ORDER BY id`,
    );
    expect(rows.map((r) => [r.outcome, (r.detail as { event?: string } | null)?.event ?? null])).toEqual([
      ['success', 'start'],
      ['success', 'finish'],
      ['success', 'start'],
      ['success', 'skip'],
      ['failure', null],
    ]);
    expect(rows[1]!.detail).toMatchObject({
      before: { currentstep: 26, is_onboarding_completed: false },
      after: { currentstep: 27, is_onboarding_completed: true },
    });
  });

  it('refuses bodies without a step or completed flag, and out-of-range steps', async () => {
    for (const body of [
      {},
      { restart: true },
      { currentstep: -1 },
      { currentstep: 28 },
      { currentstep: 2.5 },
      { other: 1 },
    ]) {
      const res = await set(ada, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: SET, headers: ada.headers, payload: { currentstep: 9 } }))
        .statusCode,
    ).toBe(400);
  });

  it('keeps the state per organisation: the session organisation', async () => {
    const member = await joinAs(t, ada, 'member', 'developer');
    await set(member, { currentstep: TOUR_SERVER_STEPS.logs });
    const rows = await query(
      t,
      sql`SELECT organisation_id, current_step, completed FROM onboarding_states WHERE user_id = ${member.userId}`,
    );
    expect(rows).toEqual([{ organisation_id: ada.organisationId, current_step: 21, completed: false }]);
    expect((await get(member)).Onboardingstate.currentstep).toBe(21);
  });

  it('has no tour for a service-account token (403)', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/service-accounts',
      headers: ada.headers,
      payload: {
        name: 'tour-bot',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        workspaces: [{ workspaceId: ada.workspaceId, role: 'viewer' }],
      },
    });
    expect(created.statusCode).toBe(201);
    const token = (created.json() as { token: string }).token;
    expect((await t.app.inject({ url: GET, headers: { authorization: token } })).statusCode).toBe(403);
  });
});

describe('nextTourState', () => {
  const at = (currentstep: number, is_onboarding_completed = false) => ({
    currentstep,
    is_onboarding_completed,
  });
  it('moves forward only, completes at 27, restarts, and skips', () => {
    expect(nextTourState(at(10), { currentstep: 9 })).toEqual(at(10));
    expect(nextTourState(at(10), { currentstep: 26 })).toEqual(at(26));
    expect(nextTourState(at(26), { currentstep: 27 })).toEqual(at(27, true));
    expect(nextTourState(at(27, true), { currentstep: 4, restart: true })).toEqual(at(4));
    expect(nextTourState(at(12), { is_onboarding_completed: true })).toEqual(at(12, true));
  });
});
