import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { serviceAccountStatus } from './api';

const ctx = withSignedInPeer();

describe('service accounts', () => {
  it('shows the token once, copies it, and lists the account by prefix', async () => {
    renderApp('/settings/service-accounts');
    expect(await screen.findByText('No service accounts yet', {}, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create service account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create service account' });
    await user.type(within(dialog).getByLabelText('Name'), 'ci-bot');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const tokenDialog = await screen.findByTestId('token-dialog', {}, opts);
    expect(tokenDialog.textContent).toContain('It will not be shown again.');
    const token = (screen.getByTestId('service-account-token') as HTMLInputElement).value;
    expect(token).toMatch(/^slw_/);
    await user.click(within(tokenDialog).getByRole('button', { name: 'Copy token' }));
    // user-event stands in for the system clipboard
    expect(await navigator.clipboard.readText()).toBe(token);
    expect(await within(tokenDialog).findByText('The token is copied to the clipboard.')).toBeTruthy();
    await user.click(within(tokenDialog).getByRole('button', { name: 'I have copied it' }));

    const row = await screen.findByTestId('service-account-row', {}, opts);
    expect(row.textContent).toContain('ci-bot');
    expect(row.textContent).toContain(token.slice(0, 8));
    expect(document.body.textContent).not.toContain(token);
    const body = ctx.peer.calls('POST', '/api/service-accounts').at(-1)!.body as { workspaces: unknown };
    expect(body.workspaces).toEqual([{ workspaceId: 'ws-1', role: 'developer' }]);
  });

  it('tells active, expired and revoked apart', () => {
    const now = Date.parse('2025-06-01T00:00:00Z');
    expect(serviceAccountStatus({ revokedAt: null, expiresAt: '2025-07-01' }, now)).toBe('active');
    expect(serviceAccountStatus({ revokedAt: null, expiresAt: '2025-05-01' }, now)).toBe('expired');
    expect(serviceAccountStatus({ revokedAt: '2025-05-02', expiresAt: '2025-07-01' }, now)).toBe('revoked');
  });
});
