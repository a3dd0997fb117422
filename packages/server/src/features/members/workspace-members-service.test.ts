import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  ALREADY_IN_WORKSPACE_MESSAGE,
  BUILTIN_ROLE_GRANTS,
  MESSAGES,
  NOT_IN_WORKSPACE_MESSAGE,
  type ListQuery,
} from '@slipway/contracts';
import { ConflictError, InputError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import { FakeRolesStore } from '../roles/fake-roles-store.js';
import { FakeMembersStore } from './fake-members-store.js';
import { WorkspaceMembersService, withinGrants, type WorkspaceActor } from './workspace-members-service.js';

const ORG = 'org-a';
const WS = 'ws-a';
const person = (id: string) => ({ id, email: `${id}@example.com`, firstName: id, lastName: 'L' });
const q = (over: Partial<ListQuery> = {}): ListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'role',
  _order: 'ASC',
  ...over,
});

function setup() {
  const store = new FakeMembersStore();
  const roles = new FakeRolesStore();
  store.addWorkspace({ id: WS, organisationId: ORG, name: 'alpha' });
  store.addMember(ORG, person('owner'), 'master_admin');
  store.addMember(ORG, person('lead'), 'member');
  store.addMember(ORG, person('dev'), 'member');
  store.addMember(ORG, person('new'), 'member');
  store.addMember('org-b', person('stranger'), 'member');
  return { store, roles, service: new WorkspaceMembersService(store, roles) };
}
const lead: WorkspaceActor = {
  userId: 'lead',
  organisationId: ORG,
  workspaceId: WS,
  grants: BUILTIN_ROLE_GRANTS.project_admin,
};
const everything = ALL_PERMISSIONS.map((permission) => ({ permission }));

describe('WorkspaceMembersService over the fake store', () => {
  it('a project admin adds a member of the organisation once, and lists the workspace by role', async () => {
    const { service, store } = setup();
    await store.setWorkspaceRole(WS, 'lead', 'project_admin');
    await service.add(lead, 'dev', 'developer');
    await expect(service.add(lead, 'dev', 'viewer')).rejects.toThrow(
      new ConflictError(ALREADY_IN_WORKSPACE_MESSAGE),
    );
    const { total, members } = await service.list(WS, q());
    expect(total).toBe(2);
    expect(members.map((m) => [m.userId, m.role, m.organisationRole])).toEqual([
      ['dev', 'developer', 'member'],
      ['lead', 'project_admin', 'member'],
    ]);
  });

  it('refuses people outside the organisation and roles it does not have', async () => {
    const { service } = setup();
    await expect(service.add(lead, 'stranger', 'viewer')).rejects.toThrow(
      new NotFoundError('Member not found'),
    );
    const err = await service.add(lead, 'dev', 'no-such-role').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ details: [{ path: 'role' }] });
  });

  it('nobody hands out more than they hold, nor touches an organisation admin unless one', async () => {
    const { service, roles } = setup();
    const viewerLead = { ...lead, grants: BUILTIN_ROLE_GRANTS.viewer };
    const notAllowed = new NotAllowedError(MESSAGES.actionNotAllowed);
    await expect(service.add(viewerLead, 'dev', 'developer')).rejects.toThrow(notAllowed);
    await expect(service.add(lead, 'owner', 'viewer')).rejects.toThrow(notAllowed);
    await roles.create({
      id: 'super',
      organisationId: ORG,
      name: 'Super',
      description: '',
      grants: everything,
    });
    await expect(service.add(lead, 'dev', 'super')).rejects.toThrow(notAllowed);
    const ownerActor = { userId: 'owner', organisationId: ORG, workspaceId: WS, grants: everything };
    await service.add(ownerActor, 'dev', 'super');
    // taking away a role also needs its grants
    await expect(service.remove(lead, 'dev')).rejects.toThrow(notAllowed);
    await service.remove(ownerActor, 'dev');
  });

  it('changes a role and removes a member; someone not in the workspace is not found', async () => {
    const { service, store } = setup();
    await service.add(lead, 'dev', 'viewer');
    await service.changeRole(lead, 'dev', 'developer');
    expect(await store.workspaceRoleOf(WS, 'dev')).toBe('developer');
    await service.remove(lead, 'dev');
    const notIn = new NotFoundError(NOT_IN_WORKSPACE_MESSAGE);
    await expect(service.remove(lead, 'dev')).rejects.toThrow(notIn);
    await expect(service.changeRole(lead, 'new', 'viewer')).rejects.toThrow(notIn);
  });

  it('withinGrants: an environment-limited grant does not cover an unlimited one', () => {
    const p = ALL_PERMISSIONS[0]!;
    expect(withinGrants([{ permission: p, environments: ['dev'] }], [{ permission: p }])).toBe(true);
    expect(withinGrants([{ permission: p }], [{ permission: p, environments: ['dev'] }])).toBe(false);
    expect(
      withinGrants(
        [{ permission: p, environments: ['dev'] }],
        [{ permission: p, environments: ['dev', 'prod'] }],
      ),
    ).toBe(true);
  });
});
