import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_ROLE_GRANTS, type CallerPermissions } from '@slipway/contracts';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { renderApp, storeSession } from '../../test/app';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
});
afterAll(() => peer.close());

const MEMBER_ORGANISATION: CallerPermissions['organisation'] = [
  { permission: 'organisation:view' },
  { permission: 'members:view' },
  { permission: 'roles:view' },
];
const asWorkspaceRole = (role: 'project_admin' | 'developer'): CallerPermissions => ({
  organisationRole: 'member',
  organisation: MEMBER_ORGANISATION,
  workspaceId: 'ws-1',
  workspaceRole: role,
  workspace: BUILTIN_ROLE_GRANTS[role],
});

function signInAs(role: 'project_admin' | 'developer') {
  const user = peer.addUser({ email: `pa-${Math.random()}@example.com`, password: 'Engine#1843' });
  peer.org.permissions.set(user.id, asWorkspaceRole(role));
  storeSession(peer.signIn(user).token);
}

beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
  const person = (userId: string, firstName: string, organisationRole: 'member' | 'account_admin') => ({
    userId,
    firstName,
    lastName: 'Test',
    email: `${firstName.toLowerCase()}@example.com`,
    organisationRole,
  });
  peer.org.members = [
    { ...person('u-grace', 'Grace', 'member'), joinedAt: '2025-01-01T00:00:00Z', workspaces: [] },
    {
      ...person('u-linus', 'Linus', 'member'),
      joinedAt: '2025-01-01T00:00:00Z',
      workspaces: [{ workspaceId: 'ws-1', workspaceName: 'Default', role: 'developer' }],
    },
    {
      ...person('u-barbara', 'Barbara', 'account_admin'),
      joinedAt: '2025-01-01T00:00:00Z',
      workspaces: [{ workspaceId: 'ws-1', workspaceName: 'Default', role: 'developer' }],
    },
  ];
  peer.org.workspaceMembers = [
    { ...person('u-linus', 'Linus', 'member'), role: 'developer' },
    { ...person('u-barbara', 'Barbara', 'account_admin'), role: 'developer' },
  ];
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

describe("a project admin manages their workspace's members", () => {
  it('adds an organisation member, makes a member Project Admin and removes one after asking', async () => {
    signInAs('project_admin');
    renderApp('/settings/team');
    const section = await screen.findByRole('region', { name: 'Members of Default' }, opts);
    await within(section).findAllByTestId('workspace-member-row', {}, opts);
    // organisation-level actions stay with the organisation's admins
    expect(screen.getByRole('button', { name: 'Actions for Grace Test' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Invite member' })).toHaveProperty('disabled', true);
    // and so do organisation admins' rows here
    expect(
      within(section).getByRole('button', { name: 'Workspace actions for Barbara Test' }),
    ).toHaveProperty('disabled', true);

    const user = userEvent.setup();
    await user.click(within(section).getByRole('button', { name: 'Add to workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a member to Default' });
    await user.click(within(dialog).getByRole('button', { name: 'Add to workspace' }));
    expect(within(dialog).getByText('Member required')).toBeTruthy();
    await user.click(within(dialog).getByRole('combobox', { name: 'Member' }));
    const options = await screen.findAllByRole('option');
    // only people not in the workspace yet
    expect(options.map((o) => o.textContent)).toEqual(['Grace Test (grace@example.com)']);
    await user.click(options[0]!);
    await user.click(within(dialog).getByRole('combobox', { name: 'Workspace role' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add to workspace' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(peer.calls('POST', '/api/workspace/members').at(-1)!.body).toEqual({
      userId: 'u-grace',
      role: 'viewer',
    });
    expect(peer.calls('POST', '/api/workspace/members').at(-1)!.headers['x-workspace-id']).toBe('ws-1');
    await within(section).findByText('grace@example.com', {}, opts);

    await user.click(within(section).getByRole('button', { name: 'Workspace actions for Linus Test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Make Project Admin' }));
    await waitFor(() => expect(peer.calls('PUT', '/api/workspace/members/u-linus')).toHaveLength(1), opts);
    expect(peer.calls('PUT', '/api/workspace/members/u-linus')[0]!.body).toEqual({ role: 'project_admin' });
    await within(section).findByText('Project admin', {}, opts);

    await user.click(within(section).getByRole('button', { name: 'Workspace actions for Grace Test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove from workspace' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove Grace Test from this workspace?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(peer.calls('DELETE', '/api/workspace/members/u-grace')).toHaveLength(0);
    await user.click(within(section).getByRole('button', { name: 'Workspace actions for Grace Test' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove from workspace' }));
    const again = await screen.findByRole('dialog', { name: 'Remove Grace Test from this workspace?' });
    await user.click(within(again).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(section).queryByText('grace@example.com')).toBeNull(), opts);
    expect(peer.org.workspaceMembers.map((m) => m.userId)).toEqual(['u-linus', 'u-barbara']);
  });

  it('a developer sees the workspace members but cannot change them', async () => {
    signInAs('developer');
    renderApp('/settings/team');
    const section = await screen.findByRole('region', { name: 'Members of Default' }, opts);
    await within(section).findAllByTestId('workspace-member-row', {}, opts);
    expect(within(section).getByRole('button', { name: 'Add to workspace' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(section).getByRole('button', { name: 'Workspace actions for Linus Test' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('sorts the workspace members by name from the header (the server sorts)', async () => {
    signInAs('developer');
    renderApp('/settings/team');
    const section = await screen.findByRole('region', { name: 'Members of Default' }, opts);
    const names = async () =>
      (await within(section).findAllByTestId('workspace-member-row', {}, opts)).map((r) => r.textContent);
    await waitFor(async () => expect((await names())[0]).toContain('Linus Test'), opts);
    const header = within(section).getByRole('columnheader', { name: 'Name' });
    await userEvent.setup().click(within(header).getByRole('button', { name: 'Name' }));
    await waitFor(async () => expect((await names())[0]).toContain('Barbara Test'), opts);
    expect(peer.calls('GET', '/api/workspace/members').at(-1)!.query).toMatchObject({ _sort: 'firstName' });
    expect(within(section).getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
  });
});
