import { describe, expect, it } from 'vitest';
import { LAST_ADMIN_MESSAGE, MESSAGES, type ListQuery } from '@slipway/contracts';
import { ConflictError, InputError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import { FakeRolesStore } from '../roles/fake-roles-store.js';
import { FakeMembersStore } from './fake-members-store.js';
import { MembersService } from './members-service.js';

const ORG = 'org-a';
const OTHER = 'org-b';
const person = (id: string, firstName = id) => ({ id, email: `${id}@example.com`, firstName, lastName: 'L' });
const q = (over: Partial<ListQuery> = {}): ListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'email',
  _order: 'ASC',
  ...over,
});

function setup() {
  const store = new FakeMembersStore();
  const roles = new FakeRolesStore();
  store.addMember(ORG, person('owner'), 'master_admin', new Date('2026-01-01'));
  store.addMember(ORG, person('admin'), 'account_admin', new Date('2026-01-02'));
  store.addMember(ORG, person('dev'), 'member', new Date('2026-01-03'));
  store.addMember(OTHER, person('stranger'), 'master_admin');
  store.addWorkspace({ id: 'ws-b', organisationId: ORG, name: 'beta' });
  store.addWorkspace({ id: 'ws-a', organisationId: ORG, name: 'alpha' });
  store.addWorkspace({ id: 'ws-x', organisationId: OTHER, name: 'theirs' });
  return { store, roles, service: new MembersService(store, roles) };
}
const owner = { userId: 'owner', organisationId: ORG };
const admin = { userId: 'admin', organisationId: ORG };

describe('MembersService over the fake store', () => {
  it('lists a page of the organisation’s members with their workspace roles by workspace name', async () => {
    const { service } = setup();
    await service.setWorkspaceRole(ORG, 'dev', 'ws-b', 'developer');
    await service.setWorkspaceRole(ORG, 'dev', 'ws-a', 'viewer');
    const { total, members } = await service.list(ORG, q({ _sort: 'joinedAt', _order: 'DESC', _end: 2 }));
    expect(total).toBe(3);
    expect(members.map((m) => m.userId)).toEqual(['dev', 'admin']);
    expect(members[0]).toMatchObject({
      organisationRole: 'member',
      joinedAt: new Date('2026-01-03').toISOString(),
      workspaces: [
        { workspaceId: 'ws-a', workspaceName: 'alpha', role: 'viewer' },
        { workspaceId: 'ws-b', workspaceName: 'beta', role: 'developer' },
      ],
    });
  });

  it('refuses a sort it does not know, naming the choices', async () => {
    const { service } = setup();
    await expect(service.list(ORG, q({ _sort: 'password' }))).rejects.toMatchObject({
      message: expect.stringMatching(/^_sort must be one of id, userId, email/),
    });
  });

  it('only a master admin makes or unmakes master admins', async () => {
    const { service, store } = setup();
    await expect(service.changeRole(admin, 'dev', 'master_admin')).rejects.toThrow(
      new NotAllowedError(MESSAGES.actionNotAllowed),
    );
    await expect(service.changeRole(admin, 'owner', 'member')).rejects.toBeInstanceOf(NotAllowedError);
    await service.changeRole(admin, 'dev', 'account_admin');
    await service.changeRole(owner, 'admin', 'master_admin');
    expect(await store.roleOf(ORG, 'dev')).toBe('account_admin');
    expect(await store.roleOf(ORG, 'admin')).toBe('master_admin');
  });

  it('never leaves the organisation without an admin', async () => {
    const { service } = setup();
    await service.changeRole(owner, 'admin', 'member');
    await expect(service.changeRole(owner, 'owner', 'member')).rejects.toThrow(
      new ConflictError(LAST_ADMIN_MESSAGE),
    );
    await expect(service.remove(owner, 'owner')).rejects.toThrow(new ConflictError(LAST_ADMIN_MESSAGE));
  });

  it('removal takes the person out of the organisation and its workspaces and ends their sessions there', async () => {
    const { service, store } = setup();
    await service.setWorkspaceRole(ORG, 'dev', 'ws-a', 'developer');
    store.people.get('dev')!.currentOrganisationId = ORG;
    await service.remove(admin, 'dev');
    expect(await store.roleOf(ORG, 'dev')).toBeNull();
    expect(await store.workspaceRoleOf('ws-a', 'dev')).toBeNull();
    expect(store.endedSessions).toEqual([{ userId: 'dev', organisationId: ORG }]);
    expect(store.people.get('dev')!.currentOrganisationId).toBeNull();
    await expect(service.remove(admin, 'dev')).rejects.toThrow(new NotFoundError('Member not found'));
  });

  it('another organisation’s people and workspaces are not found', async () => {
    const { service } = setup();
    await expect(service.changeRole(owner, 'stranger', 'member')).rejects.toThrow('Member not found');
    await expect(service.setWorkspaceRole(ORG, 'stranger', 'ws-a', 'viewer')).rejects.toThrow(
      'Member not found',
    );
    await expect(service.setWorkspaceRole(ORG, 'dev', 'ws-x', 'viewer')).rejects.toThrow(
      new NotFoundError('Workspace not found'),
    );
  });

  it('a workspace role is built-in or a custom role of this organisation', async () => {
    const { service, roles, store } = setup();
    await roles.create({ id: 'custom-1', organisationId: ORG, name: 'Ops', description: '', grants: [] });
    await roles.create({
      id: 'custom-x',
      organisationId: OTHER,
      name: 'Theirs',
      description: '',
      grants: [],
    });
    await service.setWorkspaceRole(ORG, 'dev', 'ws-a', 'custom-1');
    expect(await store.workspaceRoleOf('ws-a', 'dev')).toBe('custom-1');
    await expect(service.setWorkspaceRole(ORG, 'dev', 'ws-a', 'custom-x')).rejects.toBeInstanceOf(InputError);
  });

  it('takes a member out of a workspace, and says so when they were not in it', async () => {
    const { service } = setup();
    await service.setWorkspaceRole(ORG, 'dev', 'ws-a', 'developer');
    await service.removeFromWorkspace(ORG, 'dev', 'ws-a');
    await expect(service.removeFromWorkspace(ORG, 'dev', 'ws-a')).rejects.toThrow(
      new NotFoundError('The member is not in this workspace'),
    );
  });
});
