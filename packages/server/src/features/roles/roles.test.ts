import { ALL_PERMISSIONS, MESSAGES, PERMISSION_RESOURCES } from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inWorkspace } from '../../platform/auth/principal.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs } from '../members/team.test-helper.js';
import { normaliseGrants } from './roles-service.js';

describe('normaliseGrants', () => {
  it('drops empty environment lists and duplicate environments, refuses a permission twice', () => {
    expect(normaliseGrants([{ permission: 'pipelines:view', environments: [] }])).toEqual([
      { permission: 'pipelines:view' },
    ]);
    expect(
      normaliseGrants([{ permission: 'pipelines:execute', environments: ['staging', 'staging'] }]),
    ).toEqual([{ permission: 'pipelines:execute', environments: ['staging'] }]);
    expect(() =>
      normaliseGrants([{ permission: 'pipelines:view' }, { permission: 'pipelines:view' }]),
    ).toThrow(/twice/);
  });
});

describe('roles', () => {
  let t: TestApp;
  let admin: TestUser;
  let foreign: TestUser;
  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      // A stand-in for a workspace-scoped feature route, to see a custom role limit its holder.
      app.get('/api/test/pipelines', { config: { access: inWorkspace('pipelines:view') } }, async () => ({
        ok: true,
      }));
    });
    admin = await createSignedInUser(t.app, t.db.database);
    foreign = await createSignedInUser(t.app, t.db.database);
  });
  afterAll(() => t.close());

  const call = (who: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('lists the built-in roles with their grants, and the permission catalogue', async () => {
    const roles = (await call(admin, 'GET', '/api/roles')).json() as Array<{
      id: string;
      builtIn: boolean;
      grants: unknown[];
    }>;
    expect(roles.map((r) => r.id)).toEqual([
      'master_admin',
      'account_admin',
      'project_admin',
      'developer',
      'viewer',
    ]);
    expect(roles.every((r) => r.builtIn && r.grants.length > 0)).toBe(true);
    const catalogue = (await call(admin, 'GET', '/api/permissions')).json();
    expect(catalogue.resources).toEqual([...PERMISSION_RESOURCES]);
    expect(catalogue.actions).toEqual(['view', 'create', 'edit', 'delete', 'execute']);
    expect(catalogue.permissions).toHaveLength(ALL_PERMISSIONS.length);
  });

  it('creates, changes and deletes a custom role; names are unique; grants are checked', async () => {
    const body = {
      name: 'Release manager',
      description: 'Runs pipelines in staging only',
      grants: [
        { permission: 'pipelines:view' },
        { permission: 'pipelines:execute', environments: ['staging'] },
      ],
    };
    const created = await call(admin, 'POST', '/api/roles', body);
    expect(created.statusCode).toBe(201);
    const role = created.json() as { id: string };
    expect(created.json()).toMatchObject({ ...body, builtIn: false, scope: 'workspace' });
    expect((await call(admin, 'POST', '/api/roles', { ...body, name: 'release MANAGER' })).statusCode).toBe(
      409,
    );
    expect((await call(admin, 'POST', '/api/roles', { ...body, name: 'Developer' })).statusCode).toBe(409);
    expect(
      (
        await call(admin, 'POST', '/api/roles', {
          ...body,
          name: 'Other',
          grants: [{ permission: 'pipelines:fly' }],
        })
      ).statusCode,
    ).toBe(400);

    const changed = await call(admin, 'PUT', `/api/roles/${role.id}`, {
      ...body,
      grants: [{ permission: 'pipelines:view' }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().grants).toEqual([{ permission: 'pipelines:view' }]);
    expect((await call(admin, 'GET', '/api/roles')).json()).toContainEqual(
      expect.objectContaining({ id: role.id, name: 'Release manager' }),
    );

    expect((await call(admin, 'PUT', '/api/roles/developer', body)).statusCode).toBe(400);
    expect((await call(admin, 'DELETE', `/api/roles/${role.id}`)).statusCode).toBe(204);
    expect((await call(admin, 'DELETE', `/api/roles/${role.id}`)).statusCode).toBe(404);
    for (const action of ['role.create', 'role.update', 'role.delete']) {
      await expectAudited(t, action, { outcome: 'success', target_type: 'role', target_id: role.id });
    }
  });

  it('refuses to delete a role that a member or service account holds (409)', async () => {
    const role = (await call(admin, 'POST', '/api/roles', { name: 'Held', grants: [] })).json() as {
      id: string;
    };
    const person = await joinAs(t, admin, 'member', role.id);
    const res = await call(admin, 'DELETE', `/api/roles/${role.id}`);
    expect(res.statusCode).toBe(409);
    await call(admin, 'DELETE', `/api/members/${person.userId}/workspaces/${admin.workspaceId}`);
    const sa = await call(admin, 'POST', '/api/service-accounts', {
      name: 'ci',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      workspaces: [{ workspaceId: admin.workspaceId, role: role.id }],
    });
    expect(sa.statusCode).toBe(201);
    expect((await call(admin, 'DELETE', `/api/roles/${role.id}`)).statusCode).toBe(409);
  });

  it('limits a member holding a custom role without pipeline rights in that workspace', async () => {
    const noPipelines = (
      await call(admin, 'POST', '/api/roles', {
        name: 'No pipelines',
        grants: [{ permission: 'clusters:view' }],
      })
    ).json();
    const limited = await joinAs(t, admin, 'member', noPipelines.id);
    const denied = await call(limited, 'GET', '/api/test/pipelines');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    await call(admin, 'PUT', `/api/roles/${noPipelines.id}`, {
      name: 'No pipelines',
      grants: [{ permission: 'pipelines:view' }],
    });
    expect((await call(limited, 'GET', '/api/test/pipelines')).statusCode).toBe(200);
  });

  it('refuses developers (403) and roles of another organisation (404)', async () => {
    const dev = await joinAs(t, admin, 'member', 'developer');
    expect((await call(dev, 'GET', '/api/roles')).statusCode).toBe(200);
    const denied = await call(dev, 'POST', '/api/roles', { name: 'Sneaky', grants: [] });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.actionNotAllowed);
    const theirs = (await call(foreign, 'POST', '/api/roles', { name: 'Theirs', grants: [] })).json() as {
      id: string;
    };
    expect(
      (await call(admin, 'PUT', `/api/roles/${theirs.id}`, { name: 'Mine', grants: [] })).statusCode,
    ).toBe(404);
    expect((await call(admin, 'DELETE', `/api/roles/${theirs.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/roles')).json()).not.toContainEqual(
      expect.objectContaining({ id: theirs.id }),
    );
  });
});
