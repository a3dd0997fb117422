import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { rowTexts, sortByHeader } from '../../test/sort-header';
import { grantsToMatrix, matrixToGrants, parseEnvironments } from './role-grants';

const ctx = withSignedInPeer();

describe('roles', () => {
  it('sorts the roles from their headers (the whole list is in the page)', async () => {
    renderApp('/settings/roles');
    const user = userEvent.setup();
    const [table] = await screen.findAllByRole('table', {}, opts);
    await rowTexts('role-row', table!);
    const names = async () => (await rowTexts('role-row', table!)).map((r) => r.split(' ')[0]);
    await sortByHeader(user, 'Name', 'role-row', (await names()).slice().sort().at(0)!, 'ascending', table!);
    const ascending = await names();
    expect(ascending).toEqual(
      [...ascending].sort((a, b) => a!.localeCompare(b!, undefined, { sensitivity: 'base' })),
    );
    await sortByHeader(user, 'Name', 'role-row', ascending.at(-1)!, 'descending', table!);
  });

  it('creates a custom role from the permission matrix, limited to staging', async () => {
    renderApp('/settings/roles');
    expect(await screen.findByText('No custom roles yet', {}, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create role' });
    await user.click(within(dialog).getByLabelText('Name'));
    await user.paste('Staging runner');
    await user.click(within(dialog).getByLabelText('View Pipelines'));
    await user.click(within(dialog).getByLabelText('Execute Pipelines'));
    await user.click(within(dialog).getByLabelText('Environments for Pipelines'));
    await user.paste('staging');
    await user.click(within(dialog).getByLabelText('View Members'));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Staging runner', {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('POST', '/api/roles').at(-1)!.body).toEqual({
      name: 'Staging runner',
      description: '',
      grants: [
        { permission: 'members:view' },
        { permission: 'pipelines:view', environments: ['staging'] },
        { permission: 'pipelines:execute', environments: ['staging'] },
      ],
    });
  });
});

describe('role grants', () => {
  it('round-trips grants through the matrix', () => {
    const grants = [
      { permission: 'pipelines:execute' as const, environments: ['staging', 'qa'] },
      { permission: 'roles:view' as const },
    ];
    expect(matrixToGrants(grantsToMatrix(grants))).toEqual([
      { permission: 'roles:view' },
      { permission: 'pipelines:execute', environments: ['staging', 'qa'] },
    ]);
    expect(parseEnvironments(' staging, ,qa,staging ')).toEqual(['staging', 'qa']);
  });
});
