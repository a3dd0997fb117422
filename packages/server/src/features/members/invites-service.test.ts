import { describe, expect, it } from 'vitest';
import { INVITE_INVALID_MESSAGE, MESSAGES, type LoginResponse } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { hashToken } from '../../platform/keys.js';
import type { Mail } from '../../platform/mail.js';
import type { UserRow } from '../auth/auth-store.js';
import { FakeRolesStore } from '../roles/fake-roles-store.js';
import { FakeInvitesStore } from './fake-invites-store.js';
import { FakeMembersStore } from './fake-members-store.js';
import { InvitesService } from './invites-service.js';

const ORG = 'org-a';
const inviter = { userId: 'owner', organisationId: ORG };
const ctx = { ip: '203.0.113.9', userAgent: null, fingerprint: null };

function setup() {
  const members = new FakeMembersStore();
  members.addMember(
    ORG,
    { id: 'owner', email: 'owner@example.com', firstName: 'O', lastName: 'W' },
    'master_admin',
  );
  members.addWorkspace({ id: 'ws-a', organisationId: ORG, name: 'alpha' });
  members.addWorkspace({ id: 'ws-x', organisationId: 'org-b', name: 'theirs' });
  const store = new FakeInvitesStore(members);
  store.addOrganisation(ORG, 'Acme');
  const mails: Mail[] = [];
  const people = {
    async userByEmail(email: string): Promise<UserRow | null> {
      const p = [...members.people.values()].find((x) => x.email === email);
      return p ? { ...p, passwordHash: null, emailVerifiedAt: new Date(), createdAt: new Date() } : null;
    },
  };
  const auth = {
    startSession: async (user: UserRow) => ({ userId: user.id }) as unknown as LoginResponse,
  };
  const throttle = { check: async () => {}, fail: async () => {}, succeed: async () => {} };
  const service = new InvitesService(
    store,
    members,
    new FakeRolesStore(),
    people,
    auth,
    { send: async (mail) => void mails.push(mail) },
    'https://ci.example.com',
    throttle,
  );
  /** the token the invite mail carries */
  const tokenOf = (mail: Mail) => decodeURIComponent(/invite=([^\s]+)/.exec(mail.text)![1]!);
  return { members, store, service, mails, tokenOf };
}

describe('InvitesService over the fake stores', () => {
  it('invites by mail with a single-use link and lists the pending invite', async () => {
    const { service, mails, tokenOf, store } = setup();
    const invite = await service.create(inviter, { email: 'new@example.com', organisationRole: 'member' });
    expect(invite).toMatchObject({
      email: 'new@example.com',
      workspaceId: null,
      workspaceRole: null,
      invitedBy: 'owner',
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'new@example.com', subject: 'You are invited to Acme on Slipway' });
    expect(mails[0]!.text).toContain('https://ci.example.com/set-password?invite=');
    expect(await store.findPending(hashToken(tokenOf(mails[0]!)))).toMatchObject({ id: invite.id });
    expect((await service.list(ORG)).map((i) => i.id)).toEqual([invite.id]);
    expect(await service.list('org-b')).toEqual([]);
  });

  it('a new invite to the same address replaces the pending one', async () => {
    const { service } = setup();
    await service.create(inviter, { email: 'new@example.com', organisationRole: 'member' });
    const second = await service.create(inviter, {
      email: 'new@example.com',
      organisationRole: 'account_admin',
    });
    expect((await service.list(ORG)).map((i) => [i.id, i.organisationRole])).toEqual([
      [second.id, 'account_admin'],
    ]);
  });

  it('checks the workspace and role, and refuses people already in the organisation', async () => {
    const { service } = setup();
    await expect(
      service.create(inviter, {
        email: 'a@example.com',
        organisationRole: 'member',
        workspaceRole: 'viewer',
      }),
    ).rejects.toMatchObject({
      message: 'Choose the workspace the role is for',
      details: [{ path: 'body.workspaceId' }],
    });
    await expect(
      service.create(inviter, { email: 'a@example.com', organisationRole: 'member', workspaceId: 'ws-x' }),
    ).rejects.toThrow(new NotFoundError('Workspace not found'));
    await expect(
      service.create(inviter, {
        email: 'a@example.com',
        organisationRole: 'member',
        workspaceId: 'ws-a',
        workspaceRole: 'no-such-role',
      }),
    ).rejects.toMatchObject({ details: [{ path: 'body.workspaceRole' }] });
    await expect(
      service.create(inviter, { email: 'owner@example.com', organisationRole: 'member' }),
    ).rejects.toThrow(new ConflictError('This person is already a member of the organisation'));
    const withWorkspace = await service.create(inviter, {
      email: 'a@example.com',
      organisationRole: 'member',
      workspaceId: 'ws-a',
    });
    expect(withWorkspace.workspaceRole).toBe('developer');
  });

  it('revokes a pending invite of its own organisation only; a revoked link is invalid', async () => {
    const { service, mails, tokenOf } = setup();
    const invite = await service.create(inviter, { email: 'new@example.com', organisationRole: 'member' });
    await expect(service.revoke('org-b', invite.id)).rejects.toThrow(new NotFoundError('Invite not found'));
    await service.lookup(tokenOf(mails[0]!));
    await service.revoke(ORG, invite.id);
    await expect(service.revoke(ORG, invite.id)).rejects.toThrow('Invite not found');
    await expect(service.lookup(tokenOf(mails[0]!))).rejects.toThrow(
      new NotFoundError(INVITE_INVALID_MESSAGE),
    );
  });

  it('a new person accepts once with a name and password, and joins the organisation and workspace', async () => {
    const { service, mails, tokenOf, members } = setup();
    await service.create(inviter, {
      email: 'new@example.com',
      organisationRole: 'member',
      workspaceId: 'ws-a',
    });
    const token = tokenOf(mails[0]!);
    expect(await service.lookup(token)).toEqual({
      email: 'new@example.com',
      organisationName: 'Acme',
      existingUser: false,
    });
    const noName = await service
      .accept({ token, password: 'Long-password-1!' }, null, ctx)
      .catch((e: unknown) => e);
    expect(noName).toBeInstanceOf(InputError);
    expect(noName).toMatchObject({ message: MESSAGES.nameRequired, details: [{ path: 'body.firstName' }] });
    const { invite } = await service.accept(
      { token, firstName: 'New', lastName: 'Person', password: 'Long-password-1!' },
      null,
      ctx,
    );
    const userId = [...members.people.values()].find((p) => p.email === 'new@example.com')!.id;
    expect(invite.acceptedAt).toBeInstanceOf(Date);
    expect(await members.roleOf(ORG, userId)).toBe('member');
    expect(await members.workspaceRoleOf('ws-a', userId)).toBe('developer');
    await expect(
      service.accept({ token, firstName: 'N', lastName: 'P', password: 'Long-password-1!' }, null, ctx),
    ).rejects.toThrow(new NotFoundError(INVITE_INVALID_MESSAGE));
  });
});
