import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { rowTexts, sortByHeader } from '../../test/sort-header';

const ctx = withSignedInPeer();

beforeEach(() => {
  ctx.peer.studio.secrets = [];
  ctx.peer.studio.secretValues.clear();
  ctx.peer.studio.variables = [];
});

describe('secrets page', () => {
  it('lists by name and sorts by name descending, then by last change, from the headers', async () => {
    const secret = (id: string, name: string, updatedAt: string) => ({
      id,
      name,
      description: '',
      type: 'generic' as const,
      global: false,
      keys: ['value'],
      createdAt: updatedAt,
      updatedAt,
    });
    ctx.peer.studio.secrets = [
      secret('s-b', 'beta', '2025-05-01T10:00:00.000Z'),
      secret('s-a', 'alpha', '2025-06-01T10:00:00.000Z'),
    ];
    renderApp('/secrets');
    await waitFor(async () => expect((await rowTexts('secret-row'))[0]).toContain('alpha'), opts);
    const user = userEvent.setup();
    await sortByHeader(user, 'Name', 'secret-row', 'beta', 'descending');
    await sortByHeader(user, 'Updated', 'secret-row', 'beta', 'ascending');
  });

  it('checks the name and value, then creates a secret whose value is never shown again', async () => {
    renderApp('/secrets');
    const user = userEvent.setup({ delay: null });
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No secrets yet');
    await user.click(screen.getByRole('button', { name: 'New secret' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Deploy Token');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      within(dialog).getByText(
        "Secret name must start and end with a lowercase letter or number; only '-' and '.' are allowed",
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('A secret needs a value')).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'deploy-token');
    await user.type(within(dialog).getByLabelText('Value'), 's3cr3t');
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(ctx.peer.calls('POST', '/api/secrets').at(-1)!.body).toEqual({
      name: 'deploy-token',
      description: '',
      type: 'generic',
      global: true,
      values: { value: 's3cr3t' },
    });
    const row = await screen.findByTestId('secret-row', {}, opts);
    expect(row.textContent).toContain('deploy-token');
    expect(row.textContent).toContain('Global');
    expect(document.body.textContent).not.toContain('s3cr3t');
  }, 40_000);

  it('changes one key of a secret without showing its values, and deletes after asking', async () => {
    ctx.peer.studio.secrets = [
      {
        id: 'secret-1',
        name: 'deploy-token',
        description: '',
        type: 'generic',
        global: true,
        keys: ['value'],
        createdAt: '2025-05-01T10:00:00.000Z',
        updatedAt: '2025-05-01T10:00:00.000Z',
      },
    ];
    ctx.peer.studio.secretValues.set('secret-1', { value: 's3cr3t' });
    renderApp('/secrets');
    const user = userEvent.setup({ delay: null });
    const row = await screen.findByTestId('secret-row', {}, opts);
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const newValue = within(dialog).getByLabelText('New value') as HTMLInputElement;
    expect(newValue.value).toBe('');
    expect(newValue.type).toBe('password');
    await user.click(within(dialog).getByRole('button', { name: 'Add a key' }));
    const rows = within(dialog).getAllByTestId('secret-key-row');
    await user.type(within(rows[1]!).getByRole('textbox', { name: 'Key' }), 'user');
    await user.type(within(rows[1]!).getByLabelText('Value'), 'bot');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(ctx.peer.calls('PUT', '/api/secrets/secret-1').at(-1)!.body).toEqual({
      description: '',
      type: 'generic',
      global: true,
      values: { user: 'bot' },
    });
    expect(ctx.peer.studio.secretValues.get('secret-1')).toEqual({ value: 's3cr3t', user: 'bot' });
    await waitFor(() => expect(screen.getByTestId('secret-row').textContent).toContain('user, value'), opts);

    await user.click(within(screen.getByTestId('secret-row')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Delete deploy-token?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No secrets yet');
  });

  it('checks the name and creates a variable in the second tab', async () => {
    renderApp('/secrets');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Variables' }, opts));
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No variables yet');
    await user.click(screen.getByRole('button', { name: 'New variable' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '1bad');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      within(dialog).getByText(
        'Variable name must start with a letter or _ and hold only letters, numbers and _',
      ),
    ).toBeTruthy();
    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'REGION');
    await user.type(within(dialog).getByRole('textbox', { name: 'Value' }), 'eu-west-1');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const row = await screen.findByTestId('variable-row', {}, opts);
    expect(row.textContent).toContain('eu-west-1');
    expect(ctx.peer.calls('POST', '/api/variables').at(-1)!.body).toEqual({
      name: 'REGION',
      value: 'eu-west-1',
      description: '',
    });
  });

  it('edits and deletes a variable', async () => {
    ctx.peer.studio.variables = [
      {
        id: 'var-1',
        name: 'REGION',
        value: 'eu-west-1',
        description: '',
        createdAt: '2025-05-01T10:00:00.000Z',
        updatedAt: '2025-05-01T10:00:00.000Z',
      },
    ];
    renderApp('/secrets');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Variables' }, opts));
    const row = await screen.findByTestId('variable-row', {}, opts);
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByRole('dialog', {}, opts);
    await user.clear(within(edit).getByRole('textbox', { name: 'Value' }));
    await user.type(within(edit).getByRole('textbox', { name: 'Value' }), 'us-east-2');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('variable-row').textContent).toContain('us-east-2'), opts);

    await user.click(within(screen.getByTestId('variable-row')).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByTestId('confirm-dialog', {}, opts)).getByRole('button', { name: 'Delete' }),
    );
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No variables yet');
  });
});
