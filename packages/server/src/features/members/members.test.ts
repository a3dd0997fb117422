import { LAST_ADMIN_MESSAGE, MESSAGES, TOTAL_COUNT_HEADER } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { leavesNoAdmin } from './last-admin.js';
import { expectAudited, joinAs } from './team.test-helper.js';

describe('leavesNoAdmin', () => {
  it('is true only when the last admin stops being one', () => {
    expect(leavesNoAdmin([{ userId: 'a' }], 'a', 'member')).toBe(true);
    expect(leavesNoAdmin([{ userId: 'a' }], 'a', null)).toBe(true);
    expect(leavesNoAdmin([{ userId: 'a' }], 'a', 'account_admin')).toBe(false);
    expect(leavesNoAdmin([{ userId: 'a' }, { userId: 'b' }], 'a', null)).toBe(false);
  });
});

describe('members', () => {
  let t: TestApp;
  let master: TestUser;
  let foreign: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    master = await createSignedInUser(t.app, t.db.database, { firstName: 'Ada' });
    foreign = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('lists members with names, roles and workspace roles, paged with X-Total-Count', async () => {
    const dev = await joinAs(t, master, 'member', 'developer');
    const res = await call(master, 'GET', '/api/members?_start=0&_end=10&_sort=email&_order=asc');
    expect(res.statusCode).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    const members = res.json() as Array<Record<string, unknown>>;
    expect(members.map((m) => m.email)).toEqual([master.email, dev.email].sort());
    expect(members.find((m) => m.userId === dev.userId)).toMatchObject({
      firstName: 'Test',
      lastName: 'User',
      organisationRole: 'member',
      workspaces: [{ workspaceId: master.workspaceId, workspaceName: 'Default', role: 'developer' }],
    });
    const page = await call(master, 'GET', '/api/members?_start=1&_end=2&_sort=email&_order=DESC');
    expect(page.json()).toHaveLength(1);
    expect(page.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    expect((await call(master, 'GET', '/api/members?_sort=password_hash')).statusCode).toBe(400);
    // a developer may see the members, not change them
    expect((await call(dev, 'GET', '/api/members')).statusCode).toBe(200);
    const denied = await call(dev, 'PUT', `/api/members/${master.userId}/role`, {
      organisationRole: 'member',
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
  });

  it('makes an account admin, keeps the last admin, and lets the master admin step down once another admin exists', async () => {
    const last = await call(master, 'PUT', `/api/members/${master.userId}/role`, {
      organisationRole: 'member',
    });
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe(LAST_ADMIN_MESSAGE);
    expect((await call(master, 'DELETE', `/api/members/${master.userId}`)).statusCode).toBe(409);

    const person = await joinAs(t, master, 'member');
    expect(
      (await call(master, 'PUT', `/api/members/${person.userId}/role`, { organisationRole: 'account_admin' }))
        .statusCode,
    ).toBe(204);
    await expectAudited(
      t,
      'member.role_change',
      { outcome: 'success', target_id: person.userId },
      { outcome: 'failure', target_id: master.userId },
    );
  });

  it('only a master admin makes or unmakes master admins', async () => {
    const accountAdmin = await joinAs(t, master, 'account_admin');
    const other = await joinAs(t, master, 'member');
    const promote = await call(accountAdmin, 'PUT', `/api/members/${other.userId}/role`, {
      organisationRole: 'master_admin',
    });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().message).toBe(MESSAGES.actionNotAllowed);
    expect(
      (await call(accountAdmin, 'PUT', `/api/members/${master.userId}/role`, { organisationRole: 'member' }))
        .statusCode,
    ).toBe(403);
    expect((await call(accountAdmin, 'DELETE', `/api/members/${master.userId}`)).statusCode).toBe(403);
    expect(
      (await call(master, 'PUT', `/api/members/${other.userId}/role`, { organisationRole: 'master_admin' }))
        .statusCode,
    ).toBe(204);
  });

  it('assigns, changes and removes workspace roles (built-in or custom of this organisation)', async () => {
    const person = await joinAs(t, master, 'member');
    const url = `/api/members/${person.userId}/workspaces/${master.workspaceId}`;
    expect((await call(master, 'PUT', url, { role: 'project_admin' })).statusCode).toBe(204);
    expect((await call(person, 'GET', '/api/workspaces')).json()).toEqual([
      expect.objectContaining({ id: master.workspaceId, role: 'project_admin' }),
    ]);
    expect((await call(master, 'PUT', url, { role: 'no-such-role' })).statusCode).toBe(400);
    const foreignRole = await call(foreign, 'POST', '/api/roles', { name: 'Foreign role', grants: [] });
    expect((await call(master, 'PUT', url, { role: foreignRole.json().id })).statusCode).toBe(400);
    const mine = await call(master, 'POST', '/api/roles', {
      name: 'Auditor',
      grants: [{ permission: 'pipelines:view' }],
    });
    expect((await call(master, 'PUT', url, { role: mine.json().id })).statusCode).toBe(204);
    expect((await call(master, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(master, 'DELETE', url)).statusCode).toBe(404);
    expect((await call(person, 'GET', '/api/workspaces')).json()).toEqual([]);
  });

  it('answers 404 for people and workspaces of another organisation', async () => {
    expect(
      (await call(master, 'PUT', `/api/members/${foreign.userId}/role`, { organisationRole: 'member' }))
        .statusCode,
    ).toBe(404);
    expect((await call(master, 'DELETE', `/api/members/${foreign.userId}`)).statusCode).toBe(404);
    const person = await joinAs(t, master, 'member');
    const res = await call(master, 'PUT', `/api/members/${person.userId}/workspaces/${foreign.workspaceId}`, {
      role: 'viewer',
    });
    expect(res.statusCode).toBe(404);
  });

  it('removes a member: their memberships go and their sessions in the organisation end', async () => {
    const person = await joinAs(t, master, 'member', 'developer');
    expect((await call(person, 'GET', '/api/profile')).statusCode).toBe(200);
    expect((await call(master, 'DELETE', `/api/members/${person.userId}`)).statusCode).toBe(204);
    expect((await call(person, 'GET', '/api/profile')).statusCode).toBe(401);
    const members = (await call(master, 'GET', '/api/members?_end=100')).json() as Array<{ userId: string }>;
    expect(members.map((m) => m.userId)).not.toContain(person.userId);
    await expectAudited(t, 'member.remove', {
      outcome: 'success',
      target_type: 'user',
      target_id: person.userId,
    });
  });
});
