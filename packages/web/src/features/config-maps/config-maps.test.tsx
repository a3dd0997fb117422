import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CONFIG_MAP_KEY_RULE_MESSAGE,
  CONFIG_MAP_NAME_RULE_MESSAGE,
  type ConfigMap,
} from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { forwardConfigMaps, startConfigMapsPeer, type ConfigMapsPeer } from './config-maps-peer';

withSignedInPeer();
let peer: ConfigMapsPeer;
let restore: () => void;

beforeAll(async () => {
  peer = await startConfigMapsPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restore = forwardConfigMaps(peer);
  peer.state.configMaps = [];
  peer.state.requests.length = 0;
  peer.state.listStatus = null;
});
afterEach(() => restore());

function seed(patch: Partial<ConfigMap> = {}): ConfigMap {
  const configMap: ConfigMap = {
    id: 'cm-seeded',
    name: 'app-config',
    description: 'Settings',
    data: { LOG_LEVEL: 'debug', 'app.properties': 'a=1\nb=2' },
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    ...patch,
  };
  peer.state.configMaps.push(configMap);
  return configMap;
}

describe('config maps page', () => {
  it('sits beside Secrets in the sidebar and says when there are none', async () => {
    renderApp('/config-maps');
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No config maps yet');
    expect(screen.getByRole('heading', { level: 1, name: 'Config maps' })).toBeTruthy();
    const links = screen
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'))
      .filter((h) => h === '/secrets' || h === '/config-maps');
    expect(links).toEqual(['/secrets', '/config-maps']);
  });

  it('sorts by name, then by name descending, from the header (the server sorts)', async () => {
    seed({ id: 'cm-b', name: 'beta' });
    seed({ id: 'cm-a', name: 'alpha' });
    renderApp('/config-maps');
    const names = async () =>
      (await screen.findAllByTestId('config-map-row', {}, opts)).map((r) => r.textContent ?? '');
    await waitFor(async () => expect((await names())[0]).toContain('alpha'));
    const header = screen.getByRole('columnheader', { name: 'Name' });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    await userEvent.setup().click(within(header).getByRole('button', { name: 'Name' }));
    await waitFor(async () => expect((await names())[0]).toContain('beta'));
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('shows the load error with a retry', async () => {
    peer.state.listStatus = 500;
    renderApp('/config-maps');
    expect(await screen.findByText(/The config maps could not be loaded/, {}, opts)).toBeTruthy();
  });

  it('checks the name and keys, then creates a config map with a multi-line value', async () => {
    renderApp('/config-maps');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('empty-state', {}, opts);
    await user.click(screen.getByRole('button', { name: 'New config map' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'App..Config');
    const [first] = within(dialog).getAllByTestId('config-map-key-row');
    await user.type(within(first!).getByRole('textbox', { name: 'Key' }), 'bad key');
    await user.type(within(first!).getByRole('textbox', { name: 'Value' }), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText(CONFIG_MAP_NAME_RULE_MESSAGE)).toBeTruthy();
    expect(within(dialog).getByText(CONFIG_MAP_KEY_RULE_MESSAGE)).toBeTruthy();
    expect(peer.calls('POST', '/api/config-maps')).toEqual([]);

    await user.clear(within(dialog).getByRole('textbox', { name: 'Name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'app-config');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Settings');
    await user.clear(within(first!).getByRole('textbox', { name: 'Key' }));
    await user.type(within(first!).getByRole('textbox', { name: 'Key' }), 'LOG_LEVEL');
    await user.clear(within(first!).getByRole('textbox', { name: 'Value' }));
    await user.type(within(first!).getByRole('textbox', { name: 'Value' }), 'debug');
    await user.click(within(dialog).getByRole('button', { name: 'Add a key' }));
    const second = within(dialog).getAllByTestId('config-map-key-row')[1]!;
    await user.type(within(second).getByRole('textbox', { name: 'Key' }), 'app.properties');
    await user.type(within(second).getByRole('textbox', { name: 'Value' }), 'a=1{Enter}b=2');
    // a third row added and removed again is not sent
    await user.click(within(dialog).getByRole('button', { name: 'Add a key' }));
    expect(within(dialog).getAllByTestId('config-map-key-row')).toHaveLength(3);
    await user.click(within(dialog).getByRole('button', { name: 'Remove key empty' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(peer.calls('POST', '/api/config-maps').at(-1)!.body).toEqual({
      name: 'app-config',
      description: 'Settings',
      data: { LOG_LEVEL: 'debug', 'app.properties': 'a=1\nb=2' },
    });
    const row = await screen.findByTestId('config-map-row', {}, opts);
    expect(row.textContent).toContain('app-config');
    expect(row.textContent).toContain('LOG_LEVEL, app.properties');
  }, 40_000);

  it('says the server refused a duplicate name', async () => {
    seed();
    renderApp('/config-maps');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('config-map-row', {}, opts);
    await user.click(screen.getByRole('button', { name: 'New config map' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'app-config');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findByTestId('config-map-error', {}, opts)).textContent).toContain(
      'A config map with this name already exists',
    );
  });

  it('edits the values it shows, removes a key, and deletes after asking', async () => {
    seed();
    renderApp('/config-maps');
    const user = userEvent.setup({ delay: null });
    const row = await screen.findByTestId('config-map-row', {}, opts);
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const rows = within(dialog).getAllByTestId('config-map-key-row');
    expect(
      rows.map((r) => (within(r).getByRole('textbox', { name: 'Value' }) as HTMLTextAreaElement).value),
    ).toEqual(['debug', 'a=1\nb=2']);
    await user.click(within(dialog).getByRole('button', { name: 'Remove key app.properties' }));
    const level = within(within(dialog).getAllByTestId('config-map-key-row')[0]!).getByRole('textbox', {
      name: 'Value',
    });
    await user.clear(level);
    await user.type(level, 'info');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(peer.calls('PUT', '/api/config-maps/cm-seeded').at(-1)!.body).toEqual({
      description: 'Settings',
      data: { LOG_LEVEL: 'info' },
    });
    await waitFor(
      () => expect(screen.getByTestId('config-map-row').textContent).not.toContain('app.properties'),
      opts,
    );

    await user.click(within(screen.getByTestId('config-map-row')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Delete app-config?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No config maps yet');
  });
});
