import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp, storeSession } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

describe('account management', () => {
  it('switches organisation: new token and workspace, fresh cache, dashboard', async () => {
    const { store } = renderApp('/settings/account');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Switch to Difference Ltd' }, opts));
    await screen.findByTestId('area-dashboard', {}, opts);
    expect(currentUrl()).toBe('/dashboard');
    const auth = store.getState().auth;
    expect(auth.token).not.toBe(ctx.token);
    expect(auth.token).toMatch(/^tok-/);
    expect(auth.projectId).toBe('ws-2');
    expect(ctx.peer.calls('POST', '/api/organisations/org-2/switch')).toHaveLength(1);
    // the next calls carry the new session
    expect(ctx.peer.requests.at(-1)!.headers.authorization).toBe(auth.token);
  });

  it('keeps a directory (LDAP) session in its organisation: no switch', async () => {
    const user = ctx.peer.addUser({
      email: `ldap-${Math.random()}@example.com`,
      password: 'Engine#1843',
      signInMethod: 'ldap',
    });
    storeSession(ctx.peer.signIn(user).token);
    renderApp('/settings/account');
    expect(
      await screen.findByText(
        "You signed in through your organisation's directory (LDAP), so this session stays in that organisation. Sign out, then sign in to the other organisation.",
        {},
        opts,
      ),
    ).toBeTruthy();
    // (the first test switched the peer's current organisation)
    const button = await screen.findByRole('button', { name: /^Switch to / }, opts);
    expect(button).toHaveProperty('disabled', true);
  });

  it('creates a workspace', async () => {
    renderApp('/settings/account');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create workspace' }, opts));
    const name = await screen.findByLabelText('Name');
    await user.type(name, 'Production{Enter}');
    expect(await screen.findByText('Production', {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('POST', '/api/workspaces').at(-1)!.body).toEqual({ name: 'Production' });
  });
});
