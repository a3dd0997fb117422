import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, type Permission } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { FakeRolesStore } from './fake-roles-store.js';
import { assertWorkspaceRole } from './role-names.js';
import { BUILTIN_ROLES, RolesService } from './roles-service.js';

const ORG = 'org-a';
const OTHER = 'org-b';
const [P1, P2] = ALL_PERMISSIONS as [Permission, Permission];

function setup() {
  const store = new FakeRolesStore();
  return { store, service: new RolesService(store) };
}

describe('RolesService over the fake store', () => {
  it('lists the built-in roles first, then the organisation’s own by name', async () => {
    const { service } = setup();
    await service.create(ORG, { name: 'Zed', description: '', grants: [] });
    await service.create(ORG, { name: 'Ops', description: 'runs things', grants: [{ permission: P1 }] });
    await service.create(OTHER, { name: 'Theirs', description: '', grants: [] });
    const roles = await service.list(ORG);
    expect(roles.slice(0, BUILTIN_ROLES.length)).toEqual(BUILTIN_ROLES);
    expect(roles.slice(BUILTIN_ROLES.length).map((r) => [r.name, r.builtIn, r.scope])).toEqual([
      ['Ops', false, 'workspace'],
      ['Zed', false, 'workspace'],
    ]);
  });

  it('normalises grants: one per permission, environments deduplicated, none means every environment', async () => {
    const { service } = setup();
    const role = await service.create(ORG, {
      name: 'Deployer',
      description: '',
      grants: [
        { permission: P1, environments: ['prod', 'prod', 'dev'] },
        { permission: P2, environments: [] },
      ],
    });
    expect(role.grants).toEqual([{ permission: P1, environments: ['prod', 'dev'] }, { permission: P2 }]);
    const err = await service
      .create(ORG, { name: 'Twice', description: '', grants: [{ permission: P1 }, { permission: P1 }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({
      message: `${P1} is granted twice`,
      details: [{ path: 'grants.1.permission', message: `${P1} is granted twice` }],
    });
  });

  it('refuses a name a built-in or custom role holds, in any case; another organisation may use it', async () => {
    const { service, store } = setup();
    const conflict = new ConflictError('A role with this name already exists');
    await expect(service.create(ORG, { name: 'viewer', description: '', grants: [] })).rejects.toThrow(
      conflict,
    );
    await service.create(ORG, { name: 'Ops', description: '', grants: [] });
    await expect(service.create(ORG, { name: 'OPS', description: '', grants: [] })).rejects.toThrow(conflict);
    await expect(service.create(OTHER, { name: 'Ops', description: '', grants: [] })).resolves.toMatchObject({
      name: 'Ops',
    });
    store.nameTaken = async () => false;
    await expect(service.create(ORG, { name: 'Ops', description: '', grants: [] })).rejects.toThrow(conflict);
  });

  it('updates a custom role, keeping its own name free to itself', async () => {
    const { service } = setup();
    const role = await service.create(ORG, { name: 'Ops', description: '', grants: [] });
    await service.create(ORG, { name: 'Dev', description: '', grants: [] });
    await expect(
      service.update(ORG, role.id, { name: 'dev', description: '', grants: [] }),
    ).rejects.toBeInstanceOf(ConflictError);
    const updated = await service.update(ORG, role.id, {
      name: 'ops',
      description: 'd',
      grants: [{ permission: P2 }],
    });
    expect(updated).toMatchObject({
      id: role.id,
      name: 'ops',
      description: 'd',
      grants: [{ permission: P2 }],
    });
    expect((await service.list(ORG)).find((r) => r.id === role.id)).toEqual(updated);
  });

  it('built-in roles cannot be changed or deleted; another organisation’s role is not found', async () => {
    const { service } = setup();
    const builtIn = new InputError('Built-in roles cannot be changed or deleted');
    await expect(
      service.update(ORG, 'developer', { name: 'x', description: '', grants: [] }),
    ).rejects.toThrow(builtIn);
    await expect(service.remove(ORG, 'master_admin')).rejects.toThrow(builtIn);
    const theirs = await service.create(OTHER, { name: 'Theirs', description: '', grants: [] });
    await expect(service.remove(ORG, theirs.id)).rejects.toThrow(new NotFoundError('Role not found'));
    await expect(
      service.update(ORG, theirs.id, { name: 'Mine', description: '', grants: [] }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses to delete a role someone holds, and deletes it once released', async () => {
    const { service, store } = setup();
    const role = await service.create(ORG, { name: 'Ops', description: '', grants: [] });
    store.hold(role.id);
    await expect(service.remove(ORG, role.id)).rejects.toThrow(
      new ConflictError('This role is assigned to members, service accounts or invites; reassign them first'),
    );
    store.release(role.id);
    await service.remove(ORG, role.id);
    await expect(service.remove(ORG, role.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a workspace role must be built-in or a custom role of the same organisation', async () => {
    const { service, store } = setup();
    const role = await service.create(ORG, { name: 'Ops', description: '', grants: [] });
    await expect(assertWorkspaceRole(store, ORG, 'viewer')).resolves.toBeUndefined();
    await expect(assertWorkspaceRole(store, ORG, role.id)).resolves.toBeUndefined();
    await expect(assertWorkspaceRole(store, OTHER, role.id, 'body.role')).rejects.toMatchObject({
      details: [{ path: 'body.role' }],
    });
  });
});
