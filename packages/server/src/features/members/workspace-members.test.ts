import {
  ALREADY_IN_WORKSPACE_MESSAGE,
  MESSAGES,
  NOT_IN_WORKSPACE_MESSAGE,
  TOTAL_COUNT_HEADER,
} from '@slipway/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { expectAudited, joinAs } from './team.test-helper.js';
import { withinGrants } from './workspace-members-service.js';

describe('withinGrants', () => {
  it('is true only when every grant of the role is held, environments included', () => {
    const held = [{ permission: 'pipelines:execute' as const, environments: ['staging'] }];
    expect(withinGrants([{ permission: 'pipelines:execute', environments: ['staging'] }], held)).toBe(true);
    expect(withinGrants([{ permission: 'pipelines:execute' }], held)).toBe(false);
    expect(withinGrants([{ permission: 'pipelines:execute', environments: ['prod'] }], held)).toBe(false);
    expect(withinGrants([{ permission: 'pipelines:view' }], held)).toBe(false);
    expect(
      withinGrants(
        [{ permission: 'pipelines:execute', environments: ['prod'] }],
        [{ permission: 'pipelines:execute' }],
      ),
    ).toBe(true);
    expect(withinGrants([], [])).toBe(true);
  });
});

describe('project admins manage the members of their own workspace', () => {
  let t: TestApp;
  let master: TestUser;
  let projectAdmin: TestUser;
  let developer: TestUser;
  let otherWorkspace: string;
  beforeAll(async () => {
    t = await createTestApp();
    master = await createSignedInUser(t.app, t.db.database, { firstName: 'Ada' });
    projectAdmin = await joinAs(t, master, 'member', 'project_admin');
    developer = await joinAs(t, master, 'member', 'developer');
    const ws = await call(master, 'POST', '/api/workspaces', { name: 'Production' });
    otherWorkspace = ws.json().id;
  });
  afterAll(() => t.close());

  function call(
    who: TestUser,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    workspaceId = who.workspaceId,
  ) {
    return t.app.inject({
      method,
      url,
      headers: { ...who.headers, 'x-workspace-id': workspaceId },
      ...(payload ? { payload } : {}),
    });
  }
  const members = async (who: TestUser) =>
    (await call(who, 'GET', '/api/workspace/members?_end=100&_sort=email')).json() as Array<{
      userId: string;
      role: string;
    }>;
  const expectRefused = (res: { statusCode: number; json(): { message: string } }) => {
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGES.actionNotAllowed);
  };

  it('adds an organisation member, makes them Project Admin, changes and removes them, all audited', async () => {
    const person = await joinAs(t, master, 'member');
    const list = await call(projectAdmin, 'GET', '/api/workspace/members?_start=0&_end=1&_sort=email');
    expect(list.statusCode).toBe(200);
    expect(list.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    expect(list.json()).toHaveLength(1);

    const add = await call(projectAdmin, 'POST', '/api/workspace/members', {
      userId: person.userId,
      role: 'viewer',
    });
    expect(add.statusCode).toBe(204);
    expect(await members(projectAdmin)).toContainEqual(
      expect.objectContaining({ userId: person.userId, role: 'viewer', organisationRole: 'member' }),
    );
    // the new member now sees the workspace
    expect((await call(person, 'GET', '/api/workspaces')).json()).toEqual([
      expect.objectContaining({ id: master.workspaceId, role: 'viewer' }),
    ]);
    const again = await call(projectAdmin, 'POST', '/api/workspace/members', {
      userId: person.userId,
      role: 'viewer',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(ALREADY_IN_WORKSPACE_MESSAGE);

    const url = `/api/workspace/members/${person.userId}`;
    expect((await call(projectAdmin, 'PUT', url, { role: 'project_admin' })).statusCode).toBe(204);
    expect(await members(projectAdmin)).toContainEqual(
      expect.objectContaining({ userId: person.userId, role: 'project_admin' }),
    );
    expect((await call(projectAdmin, 'PUT', url, { role: 'developer' })).statusCode).toBe(204);
    expect((await call(projectAdmin, 'DELETE', url)).statusCode).toBe(204);
    const gone = await call(projectAdmin, 'DELETE', url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe(NOT_IN_WORKSPACE_MESSAGE);
    expect((await call(person, 'GET', '/api/workspaces')).json()).toEqual([]);

    await expectAudited(t, 'member.workspace_add', {
      outcome: 'success',
      actor_id: projectAdmin.userId,
      target_id: person.userId,
    });
    await expectAudited(t, 'member.role_change', { outcome: 'success', target_id: person.userId });
    await expectAudited(t, 'member.workspace_remove', { outcome: 'success', target_id: person.userId });
  });

  it('refuses a developer, with the audit trail recording the refusal', async () => {
    const person = await joinAs(t, master, 'member');
    expect((await call(developer, 'GET', '/api/workspace/members')).statusCode).toBe(200);
    expectRefused(
      await call(developer, 'POST', '/api/workspace/members', { userId: person.userId, role: 'viewer' }),
    );
    expectRefused(
      await call(developer, 'PUT', `/api/workspace/members/${projectAdmin.userId}`, { role: 'viewer' }),
    );
    expectRefused(await call(developer, 'DELETE', `/api/workspace/members/${projectAdmin.userId}`));
    await expectAudited(t, 'member.workspace_add', { outcome: 'denied', actor_id: developer.userId });
  });

  it('reaches nothing outside the workspaces they administer', async () => {
    const person = await joinAs(t, master, 'member');
    // another workspace of the organisation, where they are not a member: not even visible
    const elsewhere = await call(
      projectAdmin,
      'POST',
      '/api/workspace/members',
      { userId: person.userId, role: 'viewer' },
      otherWorkspace,
    );
    expect(elsewhere.statusCode).toBe(404);
    // the organisation-wide member routes stay with the organisation's admins
    expectRefused(
      await call(projectAdmin, 'PUT', `/api/members/${person.userId}/workspaces/${otherWorkspace}`, {
        role: 'viewer',
      }),
    );
    expectRefused(
      await call(projectAdmin, 'PUT', `/api/members/${person.userId}/role`, {
        organisationRole: 'account_admin',
      }),
    );
    expectRefused(await call(projectAdmin, 'DELETE', `/api/members/${person.userId}`));
    expectRefused(
      await call(projectAdmin, 'POST', '/api/invites', {
        email: 'someone@example.com',
        organisationRole: 'member',
      }),
    );
    // a person of another organisation
    const stranger = await createSignedInUser(t.app, t.db.database);
    const foreign = await call(projectAdmin, 'POST', '/api/workspace/members', {
      userId: stranger.userId,
      role: 'viewer',
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('never acts on organisation admins nor hands out more than a project admin holds', async () => {
    const accountAdmin = await joinAs(t, master, 'account_admin', 'developer');
    expectRefused(
      await call(projectAdmin, 'PUT', `/api/workspace/members/${accountAdmin.userId}`, { role: 'viewer' }),
    );
    expectRefused(await call(projectAdmin, 'DELETE', `/api/workspace/members/${accountAdmin.userId}`));
    expectRefused(
      await call(projectAdmin, 'POST', '/api/workspace/members', { userId: master.userId, role: 'viewer' }),
    );
    // a custom role carrying an organisation permission is more than a project admin holds
    const ssoRole = await call(master, 'POST', '/api/roles', {
      name: 'Directory keeper',
      grants: [{ permission: 'sso:edit' }],
    });
    const person = await joinAs(t, master, 'member');
    expectRefused(
      await call(projectAdmin, 'POST', '/api/workspace/members', {
        userId: person.userId,
        role: ssoRole.json().id,
      }),
    );
    const bad = await call(projectAdmin, 'POST', '/api/workspace/members', {
      userId: person.userId,
      role: 'owner',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'role' })]);
    // an organisation admin may do all of it
    expect(
      (
        await call(master, 'POST', '/api/workspace/members', {
          userId: person.userId,
          role: ssoRole.json().id,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await call(master, 'PUT', `/api/workspace/members/${accountAdmin.userId}`, { role: 'viewer' }))
        .statusCode,
    ).toBe(204);
  });

  it('a custom role that may edit members cannot raise anyone above its own grants', async () => {
    const keeper = await call(master, 'POST', '/api/roles', {
      name: 'Team keeper',
      grants: [
        { permission: 'members:view' },
        { permission: 'members:edit' },
        { permission: 'pipelines:view' },
      ],
    });
    const teamKeeper = await joinAs(t, master, 'member', keeper.json().id);
    const person = await joinAs(t, master, 'member', 'viewer');
    const url = `/api/workspace/members/${person.userId}`;
    expectRefused(await call(teamKeeper, 'PUT', url, { role: 'project_admin' }));
    expectRefused(
      await call(teamKeeper, 'PUT', `/api/workspace/members/${teamKeeper.userId}`, { role: 'project_admin' }),
    );
    // viewer grants are more than pipelines:view, so even a viewer is beyond it
    expectRefused(await call(teamKeeper, 'PUT', url, { role: keeper.json().id }));
    const narrow = await call(master, 'POST', '/api/roles', {
      name: 'Pipeline reader',
      grants: [{ permission: 'pipelines:view' }],
    });
    const other = await joinAs(t, master, 'member', narrow.json().id);
    expect(
      (await call(teamKeeper, 'PUT', `/api/workspace/members/${other.userId}`, { role: narrow.json().id }))
        .statusCode,
    ).toBe(204);
  });
});
