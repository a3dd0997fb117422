import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LAST_ADMIN_MESSAGE } from '@slipway/contracts';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { currentUrl, renderApp, storeSession } from '../../test/app';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
  const user = peer.addUser({ email: `admin-${Math.random()}@example.com`, password: 'Engine#1843' });
  storeSession(peer.signIn(user).token);
  peer.org.invites = [];
  peer.org.refuseRoleChange = false;
  peer.org.members = [
    {
      userId: 'u-grace',
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      organisationRole: 'member',
      joinedAt: '2025-01-01T00:00:00Z',
      workspaces: [{ workspaceId: 'ws-1', workspaceName: 'Default', role: 'developer' }],
    },
  ];
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

describe('team management', () => {
  it('invites a member with a workspace role and says the invite was e-mailed', async () => {
    renderApp('/settings/team');
    const row = await screen.findByTestId('member-row', {}, opts);
    expect(row.textContent).toContain('grace@example.com');
    // the role's name once the roles are in (its id until then)
    await waitFor(() => expect(row.textContent).toContain('Default: Developer'), opts);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a member' });
    await user.click(within(dialog).getByRole('button', { name: 'Send invite' }));
    expect(within(dialog).getByText('Email is a required field')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Email'), 'linus@example.com');
    await user.click(within(dialog).getByRole('combobox', { name: 'Workspace role' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invite' }));
    expect(await screen.findByText('An invite was e-mailed to linus@example.com.', {}, opts)).toBeTruthy();
    expect(peer.calls('POST', '/api/invites').at(-1)!.body).toEqual({
      email: 'linus@example.com',
      organisationRole: 'member',
      workspaceId: 'ws-1',
      workspaceRole: 'viewer',
    });
    const invite = await screen.findByTestId('invite-row', {}, opts);
    expect(invite.textContent).toContain('linus@example.com');

    // revoke asks first
    await user.click(
      await screen.findByRole('button', { name: 'Revoke the invite for linus@example.com' }, opts),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this invite?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No pending invites.', {}, opts)).toBeTruthy();
    expect(peer.org.invites).toEqual([]);
  });

  it("makes an Account admin, and shows the server's last-admin refusal", async () => {
    renderApp('/settings/team');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Grace Hopper' }, opts));
    await user.click(await screen.findByRole('menuitem', { name: 'Make Account admin' }));
    expect(await screen.findByText('Account admin', {}, opts)).toBeTruthy();
    expect(peer.calls('PUT', '/api/members/u-grace/role').at(-1)!.body).toEqual({
      organisationRole: 'account_admin',
    });

    peer.org.refuseRoleChange = true;
    await user.click(screen.getByRole('button', { name: 'Actions for Grace Hopper' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make member' }));
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe(LAST_ADMIN_MESSAGE);
  });

  it('asks before removing a member', async () => {
    renderApp('/settings/team');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Grace Hopper' }, opts));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove from organisation' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Grace Hopper?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(peer.calls('DELETE', '/api/members/u-grace')).toHaveLength(0);
    expect(currentUrl()).toBe('/settings/team');
  });

  it('sorts the members by name, then by e-mail descending, from the headers (the server sorts)', async () => {
    peer.org.members.push({
      ...peer.org.members[0]!,
      userId: 'u-ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'zz-ada@example.com',
    });
    renderApp('/settings/team');
    const emails = async () =>
      (await screen.findAllByTestId('member-row', {}, opts)).map((r) => r.textContent ?? '');
    await waitFor(async () => expect(await emails()).toHaveLength(2), opts);
    const user = userEvent.setup();
    const name = screen.getByRole('columnheader', { name: 'Name' });
    await user.click(within(name).getByRole('button', { name: 'Name' }));
    await waitFor(async () => expect((await emails())[0]).toContain('Ada Lovelace'), opts);
    expect(peer.calls('GET', '/api/members').at(-1)!.query).toMatchObject({ _sort: 'firstName' });
    const email = screen.getByRole('columnheader', { name: 'Email' });
    await user.click(within(email).getByRole('button', { name: 'Email' }));
    await user.click(within(email).getByRole('button', { name: 'Email' }));
    await waitFor(async () => expect((await emails())[0]).toContain('zz-ada@example.com'), opts);
    expect(screen.getByRole('columnheader', { name: 'Email' }).getAttribute('aria-sort')).toBe('descending');
  });
});
