import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { grantsToMatrix, matrixToGrants, parseEnvironments } from './role-grants';

const ctx = withSignedInPeer();

describe('roles', () => {
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
