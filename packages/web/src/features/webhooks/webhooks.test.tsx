import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallerPermissions, Webhook } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { forwardTriggers, startTriggersPeer, type TriggersPeer } from './triggers-peer';

const ctx = withSignedInPeer();
let triggers: TriggersPeer;
let restore: () => void;

beforeAll(async () => {
  triggers = await startTriggersPeer((id) => ctx.peer.pipelines.pipelines.find((p) => p.id === id)?.name);
});
afterAll(() => triggers.close());
beforeEach(() => {
  restore = forwardTriggers(triggers);
  ctx.peer.pipelines.pipelines.splice(0, Infinity, samplePipeline({ id: 'pl-1', name: 'hello' }));
  triggers.state.webhooks = [];
  triggers.state.deliveries = [];
  triggers.state.requests.length = 0;
});
afterEach(() => restore());

function seedWebhook(patch: Partial<Webhook> = {}): Webhook {
  const hook: Webhook = {
    id: 'wh-1',
    pipelineId: 'pl-1',
    pipelineName: 'hello',
    type: 'github',
    event: 'push',
    branch: 'main',
    enabled: true,
    path: '/api/hooks/wh-1',
    createdAt: '2026-05-01T10:00:00.000Z',
    updatedAt: '2026-05-01T10:00:00.000Z',
    lastDeliveryAt: null,
    ...patch,
  };
  triggers.state.webhooks.push(hook);
  return hook;
}

async function openActions(
  user: ReturnType<typeof userEvent.setup>,
  name = 'Actions for the GitHub push webhook of hello',
) {
  await user.click(await screen.findByRole('button', { name }, opts));
  return screen.findByRole('menu');
}

describe('webhooks page', () => {
  it('sorts by branch from its header, then the other way (the server sorts)', async () => {
    seedWebhook({ id: 'wh-1', branch: 'main' });
    seedWebhook({ id: 'wh-2', branch: 'develop' });
    renderApp('/webhooks');
    const rows = async () =>
      (await screen.findAllByTestId('webhook-row', {}, opts)).map((r) => r.textContent ?? '');
    await waitFor(async () => expect(await rows()).toHaveLength(2));
    expect((await rows())[0]).toContain('main');
    const user = userEvent.setup();
    await user.click(within(screen.getByRole('columnheader', { name: 'Branch' })).getByRole('button'));
    await waitFor(async () => expect((await rows())[0]).toContain('develop'));
    expect(screen.getByRole('columnheader', { name: 'Branch' }).getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(screen.getByRole('columnheader', { name: 'Branch' })).getByRole('button'));
    await waitFor(async () => expect((await rows())[0]).toContain('main'));
    expect(screen.getByRole('columnheader', { name: 'Branch' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('creates a webhook and shows its payload URL and secret once, with copy buttons', async () => {
    renderApp('/webhooks');
    expect(await screen.findByText('No webhooks yet', {}, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Pipeline' }));
    await user.click(await screen.findByRole('option', { name: 'hello' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'GitLab' }));
    expect(within(dialog).getByRole('combobox', { name: 'Event' }).textContent).toBe('Push Hook');
    const branch = within(dialog).getByLabelText('Branch');
    await user.clear(branch);
    await user.type(branch, 'release/*');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const shown = await screen.findByTestId('webhook-secret-dialog', {}, opts);
    expect(within(shown).getByRole('heading').textContent).toBe('Set up the webhook at GitLab');
    const url = (screen.getByTestId('webhook-payload-url') as HTMLInputElement).value;
    const created = triggers.state.webhooks[0]!;
    expect(url).toBe(`${window.location.origin}/api/hooks/${created.id}`);
    // the test's origin is localhost: a provider elsewhere could not deliver to it, and it says so
    expect(within(shown).getByTestId('loopback-warning').textContent).toContain(
      'only reaches this machine: GitHub, GitLab or Bitbucket cannot deliver to it. Set SLIPWAY_PUBLIC_URL',
    );
    const secret = (screen.getByTestId('webhook-secret') as HTMLInputElement).value;
    expect(secret).toMatch(/^secret-/);
    expect(within(shown).getByLabelText('Secret token')).toBeTruthy();
    await user.click(within(shown).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(secret);
    await user.click(within(shown).getByRole('button', { name: 'Copy URL' }));
    expect(await navigator.clipboard.readText()).toBe(url);
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));

    const row = await screen.findByTestId('webhook-row', {}, opts);
    expect(row.textContent).toContain('GitLab');
    expect(row.textContent).toContain('Push Hook');
    expect(row.textContent).toContain('release/*');
    expect(document.body.textContent).not.toContain(secret);
    expect(triggers.calls('POST', '/api/webhooks').at(-1)!.body).toEqual({
      pipelineId: 'pl-1',
      type: 'gitlab',
      event: 'Push Hook',
      branch: 'release/*',
      enabled: true,
    });
  });

  it('explains bad input under the field and sends nothing', async () => {
    renderApp('/webhooks');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New webhook' }, opts));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook' });
    const branch = within(dialog).getByLabelText('Branch');
    await user.clear(branch);
    await user.type(branch, 'main branch');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Pipeline required')).toBeTruthy();
    expect(within(dialog).getByText(/^Branch may hold letters/)).toBeTruthy();
    expect(triggers.calls('POST', '/api/webhooks')).toHaveLength(0);
  });

  it('shows the delivery log with outcomes and links to runs', async () => {
    seedWebhook({ lastDeliveryAt: '2026-05-01T11:00:00.000Z' });
    triggers.state.deliveries.push(
      {
        id: 'd-2',
        webhookId: 'wh-1',
        receivedAt: '2026-05-01T11:00:00.000Z',
        deliveryId: 'gh-2',
        event: 'push',
        outcome: 'triggered',
        statusCode: 201,
        message: 'Run started for main at 6113728f27ae',
        params: { 'git-branch': 'main' },
        runId: 'run-1',
        payloadBytes: 7000,
      },
      {
        id: 'd-1',
        webhookId: 'wh-1',
        receivedAt: '2026-05-01T10:30:00.000Z',
        deliveryId: null,
        event: 'push',
        outcome: 'rejected',
        statusCode: 401,
        message: 'x-hub-signature-256 does not match the payload',
        params: null,
        runId: null,
        payloadBytes: 7000,
      },
    );
    renderApp('/webhooks');
    const user = userEvent.setup();
    const menu = await openActions(user);
    await user.click(within(menu).getByRole('menuitem', { name: 'Deliveries' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deliveries: GitHub push for hello' });
    const rows = await within(dialog).findAllByTestId('delivery-row', {}, opts);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Triggered');
    expect(rows[0]!.textContent).toContain('201');
    expect(within(rows[0]!).getByRole('link', { name: 'View run' }).getAttribute('href')).toBe(
      '/pipelines/runs/run-1',
    );
    expect(rows[1]!.textContent).toContain('Rejected');
    expect(rows[1]!.textContent).toContain('x-hub-signature-256 does not match the payload');
    expect(within(rows[1]!).queryByRole('link')).toBeNull();
    expect(triggers.state.requests.some((r) => r.path === '/api/webhooks/wh-1/deliveries')).toBe(true);
    // sorted by outcome from its header, the rejected delivery comes first
    const outcome = within(dialog).getByRole('columnheader', { name: 'Outcome' });
    await user.click(within(outcome).getByRole('button', { name: 'Outcome' }));
    await waitFor(
      async () =>
        expect((await within(dialog).findAllByTestId('delivery-row'))[0]!.textContent).toContain('Rejected'),
      opts,
    );
  });

  it('disables, rotates the secret and deletes after confirmation', async () => {
    seedWebhook();
    renderApp('/webhooks');
    const user = userEvent.setup();
    await user.click(within(await openActions(user)).getByRole('menuitem', { name: 'Disable' }));
    await waitFor(() => expect(screen.getByTestId('webhook-row').textContent).toContain('Disabled'), opts);
    expect(triggers.calls('PUT', '/api/webhooks/wh-1').at(-1)!.body).toEqual({ enabled: false });

    await user.click(within(await openActions(user)).getByRole('menuitem', { name: 'Rotate secret' }));
    const confirm = await screen.findByRole('dialog', { name: 'Rotate the secret?' });
    await user.click(within(confirm).getByRole('button', { name: 'Rotate' }));
    const shown = await screen.findByTestId('webhook-secret-dialog', {}, opts);
    expect((within(shown).getByTestId('webhook-secret') as HTMLInputElement).value).toMatch(/^rotated-/);
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));

    await user.click(within(await openActions(user)).getByRole('menuitem', { name: 'Delete' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(triggers.calls('DELETE', '/api/webhooks/wh-1')).toHaveLength(0);
    await user.click(within(await openActions(user)).getByRole('menuitem', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete this webhook?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('No webhooks yet', {}, opts)).toBeTruthy();
  });

  it('disables what a viewer may not do', async () => {
    seedWebhook();
    const userId = ctx.peer.sessions.get(ctx.token)!;
    const viewer: CallerPermissions = {
      organisationRole: 'member',
      organisation: [],
      workspaceId: 'ws-1',
      workspaceRole: 'viewer',
      workspace: [{ permission: 'webhooks:view' }],
    };
    ctx.peer.org.permissions.set(userId, viewer);
    renderApp('/webhooks');
    await screen.findByTestId('webhook-row', {}, opts);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'New webhook' }) as HTMLButtonElement).disabled).toBe(true),
    );
    const user = userEvent.setup();
    const menu = await openActions(user);
    for (const name of ['Edit', 'Disable', 'Rotate secret', 'Delete'])
      expect(within(menu).getByRole('menuitem', { name }).getAttribute('aria-disabled')).toBe('true');
    expect(
      within(menu).getByRole('menuitem', { name: 'Deliveries' }).getAttribute('aria-disabled'),
    ).toBeNull();
  });
});
