import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MAX_RUN_MINUTES_RULE_MESSAGE } from '@slipway/contracts';
import { renderApp, storeSession } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

describe("the organisation's run duration limit", () => {
  it('is set, refused outside 1…10080 with the rule, and cleared in Settings → Account', async () => {
    renderApp('/settings/account');
    const user = userEvent.setup();
    const section = await screen.findByRole('form', { name: 'Run duration limit' }, opts);
    const field = within(section).getByRole('spinbutton', { name: 'Maximum run duration (minutes)' });
    expect((field as HTMLInputElement).value).toBe('');
    const puts = () => ctx.peer.calls('PUT', '/api/organisations/org-1');

    await user.type(field, '0');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText(MAX_RUN_MINUTES_RULE_MESSAGE, {}, opts)).toBeTruthy();
    await user.clear(field);
    await user.type(field, '10081');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText(MAX_RUN_MINUTES_RULE_MESSAGE, {}, opts)).toBeTruthy();
    expect(puts()).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '90');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The run duration limit is saved.', {}, opts)).toBeTruthy();
    expect(puts().at(-1)!.body).toEqual({ maxRunMinutes: 90 });
    expect(ctx.peer.org.organisations.find((o) => o.current)!.maxRunMinutes).toBe(90);

    expect((field as HTMLInputElement).value).toBe('90');
    await user.clear(field);
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(puts().at(-1)!.body).toEqual({ maxRunMinutes: null }), opts);
    expect(await within(section).findByText('The run duration limit is saved.', {}, opts)).toBeTruthy();
  });

  it('is read-only for someone who may not edit the organisation', async () => {
    const member = ctx.peer.addUser({
      email: `member-${Math.random()}@example.com`,
      password: 'Engine#1843',
    });
    ctx.peer.org.permissions.set(member.id, {
      organisationRole: 'member',
      organisation: [{ permission: 'organisation:view' }],
      workspaceId: 'ws-1',
      workspaceRole: 'developer',
      workspace: [],
    });
    storeSession(ctx.peer.signIn(member).token);
    renderApp('/settings/account');
    const section = await screen.findByRole('form', { name: 'Run duration limit' }, opts);
    const field = within(section).getByRole('spinbutton', { name: 'Maximum run duration (minutes)' });
    expect(field).toHaveProperty('disabled', true);
    expect(within(section).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it("shows the limit under the run dialog's timeout", async () => {
    ctx.peer.org.organisations = ctx.peer.org.organisations.map((o) => ({
      ...o,
      maxRunMinutes: o.current ? 45 : null,
    }));
    ctx.peer.pipelines.pipelines = [samplePipeline()];
    renderApp('/pipelines');
    const user = userEvent.setup();
    await screen.findByTestId('pipeline-row', {}, opts);
    await user.click(screen.getByTestId('run-pipeline-button'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    expect(
      await within(dialog).findByText("Your organisation's limit ends a run after 45 minutes", {}, opts),
    ).toBeTruthy();
  });
});
