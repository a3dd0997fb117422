import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { currentUrl, renderApp } from '../../test/app';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

function invite(email: string, token: string) {
  peer.org.invites.push({
    id: `id-${token}`,
    token,
    email,
    organisationRole: 'member',
    workspaceId: 'ws-1',
    workspaceRole: 'developer',
    invitedBy: 'u1',
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
}

describe('accepting an invite (the e-mail link /set-password?invite=…)', () => {
  it('lets a new person choose name and password, then signs them in', async () => {
    invite('new@example.com', 'tok-new');
    const { store } = renderApp('/set-password?invite=tok-new');
    expect(await screen.findByRole('heading', { name: 'Join Analytical Engines' }, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Accept and join' }));
    expect(screen.getAllByText('Name required')).toHaveLength(2);
    await user.type(screen.getByLabelText('First name'), 'Linus');
    await user.type(screen.getByLabelText('Last name'), 'Torvalds');
    await user.type(screen.getByLabelText('Password'), 'Kernel#1991');
    await user.type(screen.getByLabelText('Confirm password'), 'Kernel#1991{Enter}');
    await screen.findByTestId('area-dashboard', {}, opts);
    expect(currentUrl()).toBe('/dashboard');
    expect(store.getState().auth.token).toMatch(/^tok-/);
    expect(peer.calls('POST', '/api/invites/accept').at(-1)!.body).toEqual({
      token: 'tok-new',
      firstName: 'Linus',
      lastName: 'Torvalds',
      password: 'Kernel#1991',
    });
  });

  it('asks someone with an account for their password', async () => {
    peer.addUser({ email: 'ada@example.com', password: 'Engine#1843' });
    invite('ada@example.com', 'tok-old');
    renderApp('/accept-invite?token=tok-old');
    const password = await screen.findByLabelText('Password', {}, opts);
    const user = userEvent.setup();
    await user.type(password, 'Wrong#1234{Enter}');
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe('Invalid credentials');
    await user.clear(password);
    await user.type(password, 'Engine#1843{Enter}');
    await screen.findByTestId('area-dashboard', {}, opts);
  });

  it('says when the invite is no good', async () => {
    renderApp('/set-password?invite=nope');
    expect((await screen.findByTestId('invite-invalid', {}, opts)).textContent).toBe(
      'This invite is invalid or has expired',
    );
  });
});
