import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { sampleApplication, sampleRepository } from '../../test/applications-peer';
import { sampleCluster, sampleEnvironment } from '../../test/clusters-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

beforeEach(() => {
  ctx.peer.clusters.environments = [
    sampleEnvironment({ id: 'env-dev', name: 'development', type: 'development' }),
    sampleEnvironment({ id: 'env-stg', name: 'staging', type: 'staging' }),
  ];
  ctx.peer.applications.repositories = [sampleRepository()];
  ctx.peer.applications.applications = [];
});

describe('applications (the microservice library)', () => {
  it('says so when there is none yet', async () => {
    renderApp('/applications');
    expect(await screen.findByText('No microservices yet', {}, opts)).toBeTruthy();
  });

  it('lists applications with their health and environments', async () => {
    ctx.peer.applications.applications = [
      sampleApplication({
        health: 'degraded',
        environments: [
          {
            environmentId: 'env-dev',
            environmentName: 'development',
            health: 'healthy',
            healthMessage: null,
            image: '127.0.0.1:8080/ws-1/orders:abc',
            deployedAt: '2025-05-01T10:00:00.000Z',
            runId: 'run-1',
          },
          {
            environmentId: 'env-stg',
            environmentName: 'staging',
            health: 'degraded',
            healthMessage: 'Deployment orders: 0 of 2 ready',
            image: '127.0.0.1:8080/ws-1/orders:abc',
            deployedAt: '2025-05-01T10:00:00.000Z',
            runId: 'run-1',
          },
        ],
      }),
    ];
    renderApp('/applications');
    const [row] = await screen.findAllByTestId('application-row', {}, opts);
    expect(row!.textContent).toContain('orders');
    expect(within(row!).getByTestId('health-chip').getAttribute('data-health')).toBe('degraded');
    expect(row!.textContent).toContain('development');
    expect(row!.textContent).toContain('staging');
  });

  it('walks the wizard: general details, then the service, with the spec’s messages, then the success page', async () => {
    renderApp('/applications');
    const user = userEvent.setup();
    await screen.findByText('No microservices yet', {}, opts);
    await user.click(screen.getByRole('button', { name: 'New application' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }, opts));
    expect(await screen.findByText(MESSAGES.nameRequired, {}, opts)).toBeTruthy();
    expect(screen.getByText(MESSAGES.environmentRequired)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Orders');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(MESSAGES.smallcaseOrNumbers, {}, opts)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Name' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'orders-api');
    await user.click(screen.getByRole('combobox', { name: 'Environments' }));
    await user.click(await screen.findByRole('option', { name: 'development' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('combobox', { name: 'Repository' }));
    await user.click(await screen.findByRole('option', { name: 'orders' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await user.click(await screen.findByRole('button', { name: 'Create application' }, opts));
    expect(await screen.findByText(MESSAGES.serviceTypeRequired, {}, opts)).toBeTruthy();
    expect(screen.getByText(MESSAGES.servicePortRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.namespaceNameRequired)).toBeTruthy();
    await user.click(screen.getByRole('combobox', { name: 'Service type' }));
    await user.click(await screen.findByRole('option', { name: 'NodePort' }));
    await user.type(screen.getByRole('textbox', { name: 'Service port' }), 'eighty');
    await user.type(screen.getByRole('textbox', { name: 'Namespace' }), 'shop');
    await user.click(screen.getByRole('button', { name: 'Create application' }));
    expect(await screen.findByText(MESSAGES.servicePortNumber, {}, opts)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Service port' }));
    await user.type(screen.getByRole('textbox', { name: 'Service port' }), '8080');
    await user.click(screen.getByRole('button', { name: 'Create application' }));

    expect(await screen.findByText('orders-api is created', {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('POST', '/api/applications')[0]!.body).toEqual({
      name: 'orders-api',
      description: '',
      environmentIds: ['env-dev'],
      image: `${window.location.host}/ws-1/orders-api`,
      repositoryId: 'repo-1',
      branch: 'main',
      serviceType: 'NodePort',
      port: 8080,
      namespace: 'shop',
      pipelineId: null,
      serviceUrl: null,
    });
    expect(screen.getByRole('link', { name: 'Open application' })).toBeTruthy();
  });

  it('lists its pods in each environment bound to a cluster, by its label, with their logs', async () => {
    ctx.peer.clusters.clusters = [sampleCluster()];
    ctx.peer.clusters.environments = [
      sampleEnvironment({
        id: 'env-dev',
        name: 'development',
        clusterId: 'cl-1',
        clusterName: 'prod-eu',
        namespace: 'shop',
      }),
      sampleEnvironment({ id: 'env-stg', name: 'staging' }),
    ];
    const pod = (name: string, labels: Record<string, string>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      name,
      namespace: 'shop',
      status: 'Running',
      yaml: '',
      labels,
    });
    ctx.peer.clusters.objects = [
      pod('orders-7d9f-x1', { 'app.kubernetes.io/name': 'orders' }),
      pod('payments-5c2b-y2', { 'app.kubernetes.io/name': 'payments' }),
    ];
    ctx.peer.clusters.logs.set('shop/orders-7d9f-x1', 'listening on 8080\n');
    const seen = (environmentId: string, environmentName: string) => ({
      environmentId,
      environmentName,
      health: 'healthy' as const,
      healthMessage: null,
      image: null,
      deployedAt: null,
      runId: null,
    });
    ctx.peer.applications.applications = [
      sampleApplication({ environments: [seen('env-dev', 'development'), seen('env-stg', 'staging')] }),
    ];
    renderApp('/applications/app-1');
    const rows = await screen.findAllByTestId('application-pod-row', {}, opts);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('orders-7d9f-x1')]);
    expect(screen.getByText('This environment is not bound to a cluster.')).toBeTruthy();
    expect(screen.getByText('development · prod-eu / shop')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Logs of orders-7d9f-x1' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    expect((await within(dialog).findByTestId('pod-logs', {}, opts)).textContent).toBe('listening on 8080\n');
  });

  it('shows the overview and asks before deleting, saying what stays', async () => {
    ctx.peer.applications.applications = [
      sampleApplication({
        imageTags: [{ tag: 'v1', digest: `sha256:${'a'.repeat(64)}`, updatedAt: '2025-05-01T10:00:00.000Z' }],
      }),
    ];
    renderApp('/applications/app-1');
    const page = await screen.findByTestId('application-page', {}, opts);
    expect(page.textContent).toContain('orders · main');
    expect(page.textContent).toContain('ClusterIP · 8080');
    expect(screen.getAllByTestId('application-tag-row')).toHaveLength(1);
    expect(screen.getByText('No pipeline runs yet')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain(
      'Its repository, pipeline, images and what runs on the clusters stay.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(ctx.peer.calls('DELETE', '/api/applications/app-1')).toHaveLength(1), opts);
    expect(await screen.findByText('No microservices yet', {}, opts)).toBeTruthy();
  });
});
