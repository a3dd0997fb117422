import { describe, expect, it } from 'vitest';
import { DEFAULT_ENVIRONMENTS, LDAP_SESSION_SWITCH_MESSAGE, type LoginResponse } from '@slipway/contracts';
import { ConflictError, NotAllowedError, NotFoundError } from '../../platform/errors.js';
import type { UserRow } from '../auth/auth-store.js';
import { FakeOrganisationsStore } from './fake-organisations-store.js';
import { OrganisationsService } from './organisations-service.js';

const ORG = 'org-a';
const OTHER = 'org-b';
const ctx = { ip: null, userAgent: null, fingerprint: null };
const user: UserRow = {
  id: 'u1',
  email: 'u1@example.com',
  firstName: 'U',
  lastName: 'One',
  passwordHash: null,
  emailVerifiedAt: null,
  currentOrganisationId: ORG,
  createdAt: new Date(),
};

async function setup() {
  const store = new FakeOrganisationsStore();
  store.addOrganisation(ORG, 'Acme');
  store.addOrganisation(OTHER, 'Other');
  store.addOrganisation('org-c', 'Not mine');
  await store.createWorkspace({ id: 'ws-1', organisationId: ORG, name: 'main' });
  await store.createWorkspace({ id: 'ws-x', organisationId: OTHER, name: 'main' });
  const memberships: Record<string, string> = { [ORG]: 'master_admin', [OTHER]: 'member' };
  const calls: string[] = [];
  const people = {
    organisationsOf: async () =>
      Object.entries(memberships).map(([id, role]) => ({ ...store.organisations.get(id)!, role })),
    userById: async (id: string) => (id === user.id ? user : null),
    setCurrentOrganisation: async (userId: string, organisationId: string) => {
      calls.push(`current ${userId} ${organisationId}`);
    },
    revokeSession: async (id: string) => {
      calls.push(`revoke ${id}`);
    },
    visibleWorkspaces: async () => [],
  };
  const auth = {
    startSession: async (u: UserRow) => {
      calls.push(`start ${u.id} ${u.currentOrganisationId}`);
      return { token: 't', projectId: null } satisfies LoginResponse;
    },
  };
  return { store, calls, service: new OrganisationsService(store, people, auth) };
}

describe('OrganisationsService over the fake store', () => {
  it('creates a workspace with the default environments; names are unique in the organisation', async () => {
    const { service, store } = await setup();
    const ws = await service.createWorkspace(ORG, 'second');
    expect(ws).toMatchObject({ name: 'second', organisationId: ORG, role: 'admin' });
    expect(store.environments.get(ws.id)).toEqual(DEFAULT_ENVIRONMENTS.map((e) => e.name));
    const taken = new ConflictError('A workspace with this name already exists');
    await expect(service.createWorkspace(ORG, 'main')).rejects.toThrow(taken);
    store.workspaceNameTaken = async () => false;
    await expect(service.createWorkspace(ORG, 'main')).rejects.toThrow(taken);
    await expect(service.createWorkspace('org-c', 'main')).resolves.toMatchObject({ name: 'main' });
  });

  it("renames and deletes only the organisation's own workspaces, never its last", async () => {
    const { service } = await setup();
    const notFound = new NotFoundError('Workspace not found');
    await expect(service.renameWorkspace(ORG, 'ws-x', 'mine')).rejects.toThrow(notFound);
    await expect(service.deleteWorkspace(ORG, 'ws-x')).rejects.toThrow(notFound);
    await expect(service.renameWorkspace(ORG, 'ws-1', 'main')).resolves.toMatchObject({ name: 'main' });
    await expect(service.deleteWorkspace(ORG, 'ws-1')).rejects.toThrow(
      new ConflictError('An organisation must keep at least one workspace'),
    );
    const second = await service.createWorkspace(ORG, 'second');
    await expect(service.renameWorkspace(ORG, second.id, 'main')).rejects.toBeInstanceOf(ConflictError);
    await service.deleteWorkspace(ORG, 'ws-1');
    await expect(service.renameWorkspace(ORG, 'ws-1', 'x')).rejects.toThrow(notFound);
  });

  it('a service account sees the workspaces it was given, with its role', async () => {
    const { service, store } = await setup();
    store.grant('sa-1', 'ws-1', 'developer');
    const principal = {
      kind: 'service_account' as const,
      serviceAccountId: 'sa-1',
      organisationId: ORG,
      name: 'bot',
    };
    expect(await service.workspaces(principal)).toEqual([
      { id: 'ws-1', name: 'main', organisationId: ORG, role: 'developer' },
    ]);
  });

  it('updates only the current organisation', async () => {
    const { service } = await setup();
    const person = { userId: 'u1', organisationId: ORG };
    await expect(service.update(person, OTHER, { name: 'Mine' })).rejects.toThrow(
      new NotFoundError('Organisation not found'),
    );
    expect(await service.update(person, ORG, { name: 'Acme Ltd', maxRunMinutes: 90 })).toEqual({
      id: ORG,
      name: 'Acme Ltd',
      role: 'master_admin',
      current: true,
      maxRunMinutes: 90,
    });
  });

  it('switches to an organisation the person belongs to; an LDAP session stays where it is', async () => {
    const { service, calls } = await setup();
    const person = { userId: 'u1', sessionId: 's1', organisationId: ORG, origin: 'password' as const };
    await expect(service.switchTo(person, 'org-c', ctx)).rejects.toThrow(
      new NotFoundError('Organisation not found'),
    );
    await expect(service.switchTo({ ...person, origin: 'ldap' }, OTHER, ctx)).rejects.toThrow(
      new NotAllowedError(LDAP_SESSION_SWITCH_MESSAGE),
    );
    expect(calls).toEqual([]);
    await service.switchTo(person, OTHER, ctx);
    expect(calls).toEqual([`current u1 ${OTHER}`, 'revoke s1', `start u1 ${OTHER}`]);
  });
});
