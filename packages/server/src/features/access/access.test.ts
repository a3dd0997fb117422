import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_GRANTS, MESSAGES, type Permission } from '@slipway/contracts';
import { inOrganisation, inWorkspace } from '../../platform/auth/principal.js';
import { roles } from '../../platform/database/schema.js';
import { addToOrganisation, createSignedInUser, signIn, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { grantsAllow } from '@slipway/contracts';

describe('access control', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let developer: TestUser;
  let limited: TestUser;
  const customRoleId = randomUUID();

  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      const ok = async () => ({ ok: true });
      app.get('/api/test/pipelines', { config: { access: inWorkspace('pipelines:view') } }, ok);
      app.post('/api/test/pipelines/run', { config: { access: inWorkspace('pipelines:execute') } }, ok);
      app.post('/api/test/roles', { config: { access: inOrganisation('roles:create') } }, ok);
      app.get('/api/test/undeclared', ok);
    });
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    // A developer in the owner's workspace, and a member whose custom role has no pipeline rights
    // except running them in staging.
    const dev = await createSignedInUser(t.app, t.db.database);
    await addToOrganisation(t.db.database, {
      userId: dev.userId,
      organisationId: owner.organisationId,
      role: 'member',
      workspaceId: owner.workspaceId,
      workspaceRole: 'developer',
    });
    await t.db.database.db.insert(roles).values({
      id: customRoleId,
      organisationId: owner.organisationId,
      name: 'Release runner',
      grants: [
        { permission: 'releases:view' },
        { permission: 'pipelines:execute', environments: ['staging'] },
      ],
    });
    const lim = await createSignedInUser(t.app, t.db.database);
    await addToOrganisation(t.db.database, {
      userId: lim.userId,
      organisationId: owner.organisationId,
      role: 'member',
      workspaceId: owner.workspaceId,
      workspaceRole: customRoleId,
    });
    // Their sessions must be in the owner's organisation: make it current and sign in again.
    const { users } = await import('../../platform/database/schema.js');
    const { eq } = await import('drizzle-orm');
    for (const u of [dev, lim]) {
      await t.db.database.db
        .update(users)
        .set({ currentOrganisationId: owner.organisationId })
        .where(eq(users.id, u.userId));
    }
    developer = await signIn(t.app, {
      ...dev,
      organisationId: owner.organisationId,
      workspaceId: owner.workspaceId,
    });
    limited = await signIn(t.app, {
      ...lim,
      organisationId: owner.organisationId,
      workspaceId: owner.workspaceId,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST', url: string, who: TestUser | null, workspaceId?: string) =>
    t.app.inject({
      method,
      url,
      headers: who ? { authorization: who.token, 'x-workspace-id': workspaceId ?? who.workspaceId } : {},
    });

  it('answers 401 without a token, 404 for a workspace of another organisation, 403 without the permission', async () => {
    expect((await call('GET', '/api/test/pipelines', null)).statusCode).toBe(401);
    const foreign = await call('GET', '/api/test/pipelines', stranger, owner.workspaceId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Workspace not found');
    expect((await call('GET', '/api/test/pipelines', owner)).statusCode).toBe(200);
    expect((await call('GET', '/api/test/pipelines', developer)).statusCode).toBe(200);
    const denied = await call('GET', '/api/test/pipelines', limited);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    expect((await call('POST', '/api/test/roles', developer)).statusCode).toBe(403);
    expect((await call('POST', '/api/test/roles', owner)).statusCode).toBe(200);
  });

  it('lets an environment-limited grant reach the route; the environment is the service’s to check', async () => {
    expect((await call('POST', '/api/test/pipelines/run', limited)).statusCode).toBe(200);
    const grants = [{ permission: 'pipelines:execute' as Permission, environments: ['staging'] }];
    expect(grantsAllow(grants, 'pipelines:execute', 'staging')).toBe(true);
    expect(grantsAllow(grants, 'pipelines:execute', 'production')).toBe(false);
  });

  it('refuses a route that declares no access rule', async () => {
    const res = await call('GET', '/api/test/undeclared', owner);
    expect(res.statusCode).toBe(500);
  });

  it('tells the caller their grants in the organisation and the named workspace', async () => {
    const mine = await t.app.inject({ url: '/api/access/permissions', headers: owner.headers });
    expect(mine.json()).toMatchObject({
      organisationRole: 'master_admin',
      workspaceId: owner.workspaceId,
      workspaceRole: 'admin',
    });
    const dev = (await t.app.inject({ url: '/api/access/permissions', headers: developer.headers })).json();
    expect(dev.organisationRole).toBe('member');
    expect(dev.workspaceRole).toBe('developer');
    expect(dev.workspace).toEqual(BUILTIN_ROLE_GRANTS.developer);
    const lim = (await t.app.inject({ url: '/api/access/permissions', headers: limited.headers })).json();
    expect(lim.workspace).toEqual([
      { permission: 'releases:view' },
      { permission: 'pipelines:execute', environments: ['staging'] },
    ]);
    const foreign = (
      await t.app.inject({
        url: '/api/access/permissions',
        headers: { ...stranger.headers, 'x-workspace-id': owner.workspaceId },
      })
    ).json();
    expect(foreign).toMatchObject({ workspaceId: null, workspace: [] });
  });
});
