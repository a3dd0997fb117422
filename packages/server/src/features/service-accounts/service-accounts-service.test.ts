import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@slipway/contracts';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { hashToken } from '../../platform/keys.js';
import { FakeRolesStore } from '../roles/fake-roles-store.js';
import { FakeServiceAccountsStore } from './fake-service-accounts-store.js';
import { ServiceAccountsService, TOKEN_PREFIX_LENGTH, checkExpiry } from './service-accounts-service.js';

const ORG = 'org-a';
const OTHER = 'org-b';
const creator = { id: 'owner', organisationId: ORG };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

function setup() {
  const store = new FakeServiceAccountsStore();
  store.addWorkspace({ id: 'ws-b', organisationId: ORG, name: 'beta' });
  store.addWorkspace({ id: 'ws-a', organisationId: ORG, name: 'alpha' });
  store.addWorkspace({ id: 'ws-x', organisationId: OTHER, name: 'theirs' });
  return { store, service: new ServiceAccountsService(store, new FakeRolesStore()) };
}

describe('ServiceAccountsService over the fake store', () => {
  it('creates an account whose token is shown once and kept as a hash, listed with its workspace roles', async () => {
    const { service, store } = setup();
    const created = await service.create(creator, {
      name: 'ci-bot',
      expiresAt: inDays(30),
      workspaces: [
        { workspaceId: 'ws-b', role: 'developer' },
        { workspaceId: 'ws-a', role: 'viewer' },
      ],
    });
    expect(created.token).toMatch(/^slw_sa_/);
    expect(created.tokenPrefix).toBe(created.token.slice(0, TOKEN_PREFIX_LENGTH));
    const row = await store.get(ORG, created.id);
    expect(row?.tokenHash).toBe(hashToken(created.token));
    const [listed] = await service.list(ORG);
    expect(listed).toMatchObject({
      id: created.id,
      name: 'ci-bot',
      createdBy: 'owner',
      revokedAt: null,
      workspaces: [
        { workspaceId: 'ws-a', role: 'viewer' },
        { workspaceId: 'ws-b', role: 'developer' },
      ],
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    expect(await service.list(OTHER)).toEqual([]);
  });

  it('the expiry is a date in the future at most a year away', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(() => checkExpiry('soon', now)).toThrow(MESSAGES.invalidDate);
    expect(() => checkExpiry('2025-12-31', now)).toThrow('The expiry date must be in the future');
    expect(() => checkExpiry('2027-06-01', now)).toThrow('The expiry date must be at most one year away');
    expect(checkExpiry('2026-06-01', now).toISOString()).toBe('2026-06-01T00:00:00.000Z');
  });

  it('refuses a name taken in the organisation, and a workspace named twice (409 as the index answers)', async () => {
    const { service, store } = setup();
    await service.create(creator, { name: 'bot', expiresAt: inDays(1), workspaces: [] });
    const taken = new ConflictError('A service account with this name already exists');
    await expect(
      service.create(creator, { name: 'bot', expiresAt: inDays(1), workspaces: [] }),
    ).rejects.toThrow(taken);
    await expect(
      service.create(
        { id: 'x', organisationId: OTHER },
        { name: 'bot', expiresAt: inDays(1), workspaces: [] },
      ),
    ).resolves.toMatchObject({ name: 'bot' });
    const twice = [
      { workspaceId: 'ws-a', role: 'viewer' },
      { workspaceId: 'ws-a', role: 'developer' },
    ];
    await expect(
      service.create(creator, { name: 'twice', expiresAt: inDays(1), workspaces: twice }),
    ).rejects.toThrow(taken);
    expect(await store.nameTaken(ORG, 'twice')).toBe(false);
  });

  it('grants only workspaces of its organisation and roles it knows', async () => {
    const { service } = setup();
    await expect(
      service.create(creator, {
        name: 'b',
        expiresAt: inDays(1),
        workspaces: [{ workspaceId: 'ws-x', role: 'viewer' }],
      }),
    ).rejects.toThrow(new NotFoundError('Workspace not found'));
    await expect(
      service.create(creator, {
        name: 'b',
        expiresAt: inDays(1),
        workspaces: [
          { workspaceId: 'ws-a', role: 'viewer' },
          { workspaceId: 'ws-b', role: 'nobody' },
        ],
      }),
    ).rejects.toMatchObject({ details: [{ path: 'body.workspaces.1.role' }] });
  });

  it('replaces the workspace roles, not once revoked; revoking twice keeps the first time', async () => {
    const { service, store } = setup();
    const { id } = await service.create(creator, {
      name: 'bot',
      expiresAt: inDays(1),
      workspaces: [{ workspaceId: 'ws-a', role: 'viewer' }],
    });
    const updated = await service.setWorkspaces(ORG, id, [{ workspaceId: 'ws-b', role: 'developer' }]);
    expect(updated.workspaces).toEqual([{ workspaceId: 'ws-b', role: 'developer' }]);
    await service.revoke(ORG, id);
    const revokedAt = (await store.get(ORG, id))!.revokedAt;
    expect(revokedAt).toBeInstanceOf(Date);
    await service.revoke(ORG, id);
    expect((await store.get(ORG, id))!.revokedAt).toEqual(revokedAt);
    await expect(service.setWorkspaces(ORG, id, [])).rejects.toThrow(
      new ConflictError('This service account was revoked'),
    );
  });

  it('another organisation’s account is not found', async () => {
    const { service } = setup();
    const { id } = await service.create(creator, { name: 'bot', expiresAt: inDays(1), workspaces: [] });
    const notFound = new NotFoundError('Service account not found');
    await expect(service.revoke(OTHER, id)).rejects.toThrow(notFound);
    await expect(service.setWorkspaces(OTHER, id, [])).rejects.toThrow(notFound);
  });
});
