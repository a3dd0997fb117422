import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../test/app';
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
