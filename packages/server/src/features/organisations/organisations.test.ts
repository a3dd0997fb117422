import { MESSAGES } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs } from '../members/team.test-helper.js';

describe('organisations and workspaces', () => {
  let t: TestApp;
  let admin: TestUser;
  let foreign: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.db.database);
    foreign = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('lists my organisations with my role and which one is current', async () => {
    const res = await call(admin, 'GET', '/api/organisations');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: admin.organisationId,
        name: `Org of ${admin.email}`,
        role: 'master_admin',
        current: true,
        maxRunMinutes: null,
      },
    ]);
    expect((await t.app.inject({ url: '/api/organisations' })).statusCode).toBe(401);
  });

  it('switches account: the old session ends, the new one is in the other organisation', async () => {
    const person = await joinAs(t, foreign, 'member', 'developer');
    // person is signed in to foreign's organisation; switch back to their own one
    const own = (await call(person, 'GET', '/api/organisations')).json() as Array<{
      id: string;
      current: boolean;
    }>;
    expect(own).toHaveLength(2);
    const target = own.find((o) => !o.current)!.id;
    const res = await call(person, 'POST', `/api/organisations/${target}/switch`);
    expect(res.statusCode).toBe(200);
    const { token, projectId } = res.json() as { token: string; projectId: string };
    expect(projectId).toBeTruthy();
    expect((await call(person, 'GET', '/api/profile')).statusCode).toBe(401);
    const profile = await t.app.inject({ url: '/api/profile', headers: { authorization: token } });
    expect(profile.json()).toMatchObject({ organisationId: target });
    await expectAudited(t, 'organisation.switch', {
      outcome: 'success',
      target_type: 'organisation',
      target_id: target,
    });
  });

  it('refuses to switch to an organisation I am not in (404)', async () => {
    const res = await call(admin, 'POST', `/api/organisations/${foreign.organisationId}/switch`);
    expect(res.statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/profile')).statusCode).toBe(200);
  });

  it('renames my organisation; another organisation is not found; a developer may not', async () => {
    const res = await call(admin, 'PUT', `/api/organisations/${admin.organisationId}`, { name: 'Acme, Inc' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Acme, Inc', role: 'master_admin' });
    expect(
      (await call(admin, 'PUT', `/api/organisations/${foreign.organisationId}`, { name: 'Mine' })).statusCode,
    ).toBe(404);
    const dev = await joinAs(t, admin, 'member', 'developer');
    const denied = await call(dev, 'PUT', `/api/organisations/${admin.organisationId}`, { name: 'Mine' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    await expectAudited(
      t,
      'organisation.update',
      { outcome: 'success', target_id: admin.organisationId },
      { outcome: 'denied' },
    );
  });

  it('creates, renames and deletes workspaces; names are unique; the last one stays', async () => {
    const created = await call(admin, 'POST', '/api/workspaces', { name: 'Payments' });
    expect(created.statusCode).toBe(201);
    const ws = created.json() as { id: string; name: string };
    expect(ws).toMatchObject({ name: 'Payments', organisationId: admin.organisationId, role: 'admin' });
    expect((await call(admin, 'POST', '/api/workspaces', { name: 'Payments' })).statusCode).toBe(409);
    expect((await call(admin, 'POST', '/api/workspaces', { name: '-bad-' })).statusCode).toBe(400);

    const list = (await call(admin, 'GET', '/api/workspaces')).json() as Array<{ id: string }>;
    expect(list.map((w) => w.id)).toEqual(expect.arrayContaining([admin.workspaceId, ws.id]));

    expect((await call(admin, 'PUT', `/api/workspaces/${ws.id}`, { name: 'Default' })).statusCode).toBe(409);
    const renamed = await call(admin, 'PUT', `/api/workspaces/${ws.id}`, { name: 'Billing' });
    expect(renamed.json()).toMatchObject({ id: ws.id, name: 'Billing' });

    expect((await call(admin, 'DELETE', `/api/workspaces/${ws.id}`)).statusCode).toBe(204);
    const last = await call(admin, 'DELETE', `/api/workspaces/${admin.workspaceId}`);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe('An organisation must keep at least one workspace');

    for (const action of ['workspace.create', 'workspace.update', 'workspace.delete']) {
      await expectAudited(t, action, {
        outcome: 'success',
        target_type: 'workspace',
        organisation_id: admin.organisationId,
      });
    }
  });

  it('answers 404 for workspaces of another organisation', async () => {
    expect(
      (await call(admin, 'PUT', `/api/workspaces/${foreign.workspaceId}`, { name: 'Stolen' })).statusCode,
    ).toBe(404);
    expect((await call(admin, 'DELETE', `/api/workspaces/${foreign.workspaceId}`)).statusCode).toBe(404);
  });

  it('lets neither a project admin nor a developer create workspaces, and shows them only theirs', async () => {
    const projectAdmin = await joinAs(t, admin, 'member', 'project_admin');
    const res = await call(projectAdmin, 'POST', '/api/workspaces', { name: 'Shadow' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGES.actionNotAllowed);
    await call(admin, 'POST', '/api/workspaces', { name: 'Hidden' });
    const visible = (await call(projectAdmin, 'GET', '/api/workspaces')).json() as Array<{
      id: string;
      role: string;
    }>;
    expect(visible).toEqual([expect.objectContaining({ id: admin.workspaceId, role: 'project_admin' })]);
  });
});
