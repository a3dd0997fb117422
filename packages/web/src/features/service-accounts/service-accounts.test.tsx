import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { rowTexts, sortByHeader } from '../../test/sort-header';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { serviceAccountStatus } from './api';

const ctx = withSignedInPeer();

describe('service accounts', () => {
  it('sorts the accounts from their headers (the whole list is in the page)', async () => {
    ctx.peer.org.serviceAccounts.length = 0;
    const at = (d: string) => `2025-0${d}T10:00:00.000Z`;
    for (const [name, created] of [
      ['build-bot', '3-01'],
      ['apply-bot', '1-01'],
      ['ci-bot', '2-01'],
    ] as const)
      ctx.peer.org.serviceAccounts.push({
        id: `sa-${name}`,
        name,
        tokenPrefix: `slw_sa_${name.slice(0, 4)}`,
        workspaces: [],
        expiresAt: '2099-01-01T00:00:00.000Z',
        createdAt: at(created),
        lastUsedAt: null,
        revokedAt: null,
        createdBy: 'u1',
      });
    renderApp('/settings/service-accounts');
    const user = userEvent.setup();
    expect((await rowTexts('service-account-row'))[0]).toContain('build-bot');
    await sortByHeader(user, 'Name', 'service-account-row', 'apply-bot', 'ascending');
    await sortByHeader(user, 'Name', 'service-account-row', 'ci-bot', 'descending');
    await sortByHeader(user, 'Created', 'service-account-row', 'apply-bot', 'ascending');
    ctx.peer.org.serviceAccounts.length = 0;
  });

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

  it("changes an existing account's project permissions, a role per workspace", async () => {
    ctx.peer.org.serviceAccounts = [
      {
        id: 'sa-deploy',
        name: 'deploy-bot',
        tokenPrefix: 'slw_sa_a',
        createdBy: 'u-1',
        createdAt: '2026-01-01T00:00:00Z',
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        lastUsedAt: null,
        revokedAt: null,
        workspaces: [{ workspaceId: 'ws-1', role: 'developer' }],
      },
    ];
    renderApp('/settings/service-accounts');
    const row = await screen.findByTestId('service-account-row', {}, opts);
    // the role's name comes with the roles list, which may answer after the accounts
    await waitFor(() => expect(row.textContent).toContain('Default: Developer'));
    const user = userEvent.setup();
    await user.click(
      within(row).getByRole('button', { name: 'Change the project permissions of deploy-bot' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Project permissions of deploy-bot' });
    expect(within(dialog).getAllByTestId('sa-grant-row')).toHaveLength(1);
    await user.click(within(dialog).getByRole('combobox', { name: 'Workspace role' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add workspace' }));
    const rows = within(dialog).getAllByTestId('sa-grant-row');
    expect(rows).toHaveLength(2);
    await user.click(within(rows[1]!).getByRole('combobox', { name: 'Workspace role' }));
    await user.click(await screen.findByRole('option', { name: 'Project admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(ctx.peer.calls('PUT', '/api/service-accounts/sa-deploy/workspaces').at(-1)!.body).toEqual({
      workspaces: [
        { workspaceId: 'ws-1', role: 'viewer' },
        { workspaceId: 'ws-2', role: 'project_admin' },
      ],
    });
    await waitFor(() => {
      const text = screen.getByTestId('service-account-row').textContent ?? '';
      expect(text).toContain('Default: Viewer');
      expect(text).toContain('Staging: Project admin');
    }, opts);

    // taking every workspace away is a valid answer too
    await user.click(screen.getByRole('button', { name: 'Change the project permissions of deploy-bot' }));
    const again = await screen.findByRole('dialog', { name: 'Project permissions of deploy-bot' });
    while (within(again).queryAllByRole('button', { name: 'Remove workspace' }).length > 0)
      await user.click(within(again).getAllByRole('button', { name: 'Remove workspace' })[0]!);
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(ctx.peer.org.serviceAccounts[0]!.workspaces).toEqual([]), opts);
  });

  it('tells active, expired and revoked apart', () => {
    const now = Date.parse('2025-06-01T00:00:00Z');
    expect(serviceAccountStatus({ revokedAt: null, expiresAt: '2025-07-01' }, now)).toBe('active');
    expect(serviceAccountStatus({ revokedAt: null, expiresAt: '2025-05-01' }, now)).toBe('expired');
    expect(serviceAccountStatus({ revokedAt: '2025-05-02', expiresAt: '2025-07-01' }, now)).toBe('revoked');
  });
});
