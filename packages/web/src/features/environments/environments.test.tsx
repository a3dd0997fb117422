import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { sampleCluster, sampleDeployment, sampleEnvironment } from '../../test/clusters-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { rowTexts, sortByHeader } from '../../test/sort-header';

const ctx = withSignedInPeer();

beforeEach(() => {
  ctx.peer.clusters.clusters = [sampleCluster()];
  ctx.peer.clusters.environments = [
    sampleEnvironment({ id: 'env-dev', name: 'development', type: 'development' }),
    sampleEnvironment({
      id: 'env-1',
      name: 'staging',
      clusterId: 'cl-1',
      clusterName: 'prod-eu',
      clusterStatus: 'not_active',
      namespace: 'shop',
    }),
  ];
});

describe('environments page', () => {
  it('sorts by name from the header, then the other way (the server sorts)', async () => {
    renderApp('/environments');
    await waitFor(async () => expect(await rowTexts('environment-row')).toHaveLength(2), opts);
    const user = userEvent.setup();
    await sortByHeader(user, 'Name', 'environment-row', 'development', 'ascending');
    await sortByHeader(user, 'Name', 'environment-row', 'staging', 'descending');
  });

  it('lists environments with their cluster, its status and namespace', async () => {
    renderApp('/environments');
    const rows = await screen.findAllByTestId('environment-row', {}, opts);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('No cluster');
    expect(rows[1]!.textContent).toContain('prod-eu');
    expect(within(rows[1]!).getByTestId('cluster-status').textContent).toBe(MESSAGES.agentNotActive);
    expect(rows[1]!.textContent).toContain('shop');
  });

  it("creates an environment on a cluster, asking for the namespace in the spec's words", async () => {
    renderApp('/environments');
    const user = userEvent.setup();
    await screen.findAllByTestId('environment-row', {}, opts);
    await user.click(screen.getByRole('button', { name: 'New environment' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(MESSAGES.nameRequired, {}, opts)).toBeTruthy();
    expect(within(dialog).getByText(MESSAGES.typeRequired)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'qa');
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Other' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Cluster' }));
    await user.click(await screen.findByRole('option', { name: 'prod-eu' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(MESSAGES.namespaceRequired, {}, opts)).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Namespace' }), 'qa');
    // with a cluster, where its runs' tasks run: the cluster unless the server is chosen
    await user.click(within(dialog).getByRole('combobox', { name: 'Run pipeline tasks' }));
    await user.click(await screen.findByRole('option', { name: 'On the Slipway server, sandboxed' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(ctx.peer.calls('POST', '/api/environments')[0]!.body).toEqual({
      name: 'qa',
      description: '',
      type: 'other',
      clusterId: 'cl-1',
      namespace: 'qa',
      taskRunner: 'server',
    });
    await waitFor(() => expect(screen.getAllByTestId('environment-row')).toHaveLength(3), opts);
  });

  it('asks before deleting', async () => {
    renderApp('/environments');
    const user = userEvent.setup();
    await screen.findAllByTestId('environment-row', {}, opts);
    await user.click(screen.getByRole('button', { name: 'Delete staging' }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Delete the environment staging?');
    expect(ctx.peer.calls('DELETE', '/api/environments/env-1')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('environment-row')).toHaveLength(1), opts);
  });

  it("shows what is deployed and each application's health", async () => {
    ctx.peer.clusters.environments[1]!.deployments = [
      sampleDeployment(),
      sampleDeployment({
        id: 'dep-2',
        name: 'cart',
        health: 'degraded',
        healthMessage: 'Deployment has 0/2 ready',
      }),
    ];
    renderApp('/environments/env-1');
    const rows = await screen.findAllByTestId('deployment-row', {}, opts);
    expect(rows.map((r) => within(r).getByTestId('health-chip').textContent)).toEqual([
      'Healthy',
      'Degraded',
    ]);
    expect(rows[0]!.textContent).toContain('registry.example.com/acme/shop:1.2.0');
  });
});
