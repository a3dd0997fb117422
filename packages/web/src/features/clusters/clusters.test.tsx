import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLUSTER_CONNECTED_REDIRECT_MS, CLUSTER_HEARTBEAT_EXPECTED_MS, MESSAGES } from '@slipway/contracts';
import { currentUrl, renderApp } from '../../test/app';
import { sampleCluster } from '../../test/clusters-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { rowTexts, sortByHeader } from '../../test/sort-header';
import { attachTiming } from './attach-timing';

const ctx = withSignedInPeer();
/** The attach flow walks the whole modal; under a loaded CI machine it needs more than the default. */
const SLOW = 45_000;
let downloads: Blob[] = [];

/** jsdom's Blob has no text(); FileReader reads it. */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });
}

beforeEach(() => {
  ctx.peer.clusters.clusters = [];
  ctx.peer.clusters.environments = [];
  ctx.peer.clusters.tokensIssued = 0;
  ctx.peer.clusters.objects = [];
  ctx.peer.clusters.logs = new Map();
  Object.assign(attachTiming, { pollMs: 50, connectWaitMs: CLUSTER_HEARTBEAT_EXPECTED_MS, redirectMs: 300 });
  downloads = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    downloads.push(blob);
    return 'blob:attach';
  });
  URL.revokeObjectURL = vi.fn();
  HTMLAnchorElement.prototype.click = vi.fn();
});
afterEach(() => {
  Object.assign(attachTiming, { pollMs: 2000, redirectMs: CLUSTER_CONNECTED_REDIRECT_MS });
});

async function openAttach() {
  renderApp('/clusters');
  const user = userEvent.setup();
  expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No clusters yet');
  await user.click(screen.getByTestId('attach-cluster-button'));
  const dialog = await screen.findByRole('dialog', {}, opts);
  return { user, dialog };
}

async function configure(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('textbox', { name: 'Name' }));
  await user.paste('prod-eu');
  await user.click(within(dialog).getByRole('combobox', { name: 'Cluster type' }));
  await user.click(await screen.findByRole('option', { name: 'AWS EKS' }));
  await user.click(within(dialog).getByRole('textbox', { name: 'Public Registry Prefix' }));
  await user.paste('registry.example.com/acme');
  await user.click(within(dialog).getByRole('button', { name: 'Next' }));
  return within(dialog).findByTestId('connect-cluster', {}, opts);
}

describe('attach cluster', () => {
  it(
    "checks step 1 with the spec's messages before anything is sent",
    async () => {
      const { user, dialog } = await openAttach();
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      expect(await within(dialog).findByText(MESSAGES.nameRequired, {}, opts)).toBeTruthy();
      expect(within(dialog).getByText(MESSAGES.clusterTypeRequired)).toBeTruthy();
      expect(within(dialog).getByText(MESSAGES.publicRegistryPrefixRequired)).toBeTruthy();
      await user.click(within(dialog).getByRole('switch', { name: 'Private cluster' }));
      await user.click(within(dialog).getByRole('textbox', { name: 'Name' }));
      await user.paste('private-one');
      await user.click(within(dialog).getByRole('combobox', { name: 'Cluster type' }));
      await user.click(await screen.findByRole('option', { name: 'Azure AKS' }));
      await user.click(within(dialog).getByRole('textbox', { name: 'Public Registry Prefix' }));
      await user.paste('acr.io/acme');
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      expect(await within(dialog).findByText(MESSAGES.tunnelConfigRequired, {}, opts)).toBeTruthy();
      expect(ctx.peer.calls('POST', '/api/clusters')).toHaveLength(0);
    },
    SLOW,
  );

  it(
    'configures, downloads the YAML, waits for the heartbeat, chooses namespaces, then opens pipelines',
    async () => {
      const { user, dialog } = await openAttach();
      await user.click(within(dialog).getByRole('switch', { name: 'Limited agent permission' }));
      const allowed = within(dialog).getByRole('textbox', { name: 'Allowed namespaces' });
      expect((allowed as HTMLInputElement).value).toBe('ozone');
      await user.type(allowed, ', shop');
      await configure(user, dialog);
      expect(ctx.peer.calls('POST', '/api/clusters')[0]!.body).toEqual({
        name: 'prod-eu',
        type: 'eks',
        private: false,
        publicRegistryPrefix: 'registry.example.com/acme',
        limitedAgentPermission: true,
        allowedNamespaces: ['ozone', 'shop'],
      });
      expect(within(dialog).getByTestId('kubectl-command').textContent).toBe(
        'kubectl apply -f slipway-agent-prod-eu.yaml',
      );
      await user.click(within(dialog).getByTestId('download-yaml'));
      expect(downloads).toHaveLength(1);
      expect(await textOf(downloads[0]!)).toContain('token: slpa_token1');

      await user.click(within(dialog).getByTestId('applied-yaml'));
      expect(await within(dialog).findByTestId('connecting', {}, opts)).toBeTruthy();
      // The agent says hello: the cluster goes active with its namespaces.
      const cluster = ctx.peer.clusters.clusters[0]!;
      Object.assign(cluster, { status: 'active', namespaces: ['default', 'ozone', 'shop'] });
      const picker = await within(dialog).findByTestId('namespace-picker', {}, { timeout: 15_000 });
      expect(within(dialog).getByText('Your cluster is connected.')).toBeTruthy();
      // A limited agent offers only its allowed namespaces.
      expect(within(picker).queryByRole('checkbox', { name: 'default' })).toBeNull();
      await user.click(within(picker).getByRole('checkbox', { name: 'shop' }));
      await user.click(within(picker).getByRole('button', { name: 'Done' }));
      expect((await within(dialog).findByTestId('cluster-connected', {}, opts)).textContent).toContain(
        'Opening pipelines in',
      );
      expect(ctx.peer.calls('PUT', `/api/clusters/${cluster.id}/namespaces`)[0]!.body).toEqual({
        selectedNamespaces: ['shop'],
      });
      await waitFor(() => expect(currentUrl()).toBe('/pipelines'), opts);
    },
    SLOW,
  );

  it(
    'says the cluster is not connected when no heartbeat comes, and attaches again with a new YAML',
    async () => {
      attachTiming.connectWaitMs = 300;
      const { user, dialog } = await openAttach();
      await configure(user, dialog);
      await user.click(within(dialog).getByTestId('applied-yaml'));
      const failed = await within(dialog).findByTestId('not-connected', {}, opts);
      expect(failed.textContent).toContain(MESSAGES.clusterNotConnected);
      await user.click(within(failed).getByRole('button', { name: 'Attach again' }));
      await within(dialog).findByTestId('connect-cluster', {}, opts);
      const id = ctx.peer.clusters.clusters[0]!.id;
      expect(ctx.peer.calls('POST', `/api/clusters/${id}/attach`)).toHaveLength(1);
      await user.click(within(dialog).getByTestId('download-yaml'));
      expect(await textOf(downloads[0]!)).toContain('token: slpa_token2');
    },
    SLOW,
  );
});

describe('clusters list and detail', () => {
  it('sorts by name from the header, the other way on a second click (the server sorts)', async () => {
    ctx.peer.clusters.clusters = [
      sampleCluster({ id: 'b', name: 'b-beta' }),
      sampleCluster({ id: 'a', name: 'a-alpha' }),
    ];
    renderApp('/clusters');
    await waitFor(async () => expect((await rowTexts('cluster-row'))[0]).toContain('a-alpha'), opts);
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('ascending');
    await sortByHeader(userEvent.setup(), 'Name', 'cluster-row', 'b-beta', 'descending');
  });

  it("shows each agent status in the spec's words", async () => {
    ctx.peer.clusters.clusters = [
      sampleCluster({ id: 'a', name: 'a-active' }),
      sampleCluster({ id: 'b', name: 'b-silent', status: 'not_active' }),
      sampleCluster({ id: 'c', name: 'c-new', status: 'attaching' }),
      sampleCluster({ id: 'd', name: 'd-creating', status: 'in_creation' }),
      sampleCluster({ id: 'e', name: 'e-failed', status: 'creation_failed' }),
    ];
    renderApp('/clusters');
    const rows = await screen.findAllByTestId('cluster-row', {}, opts);
    expect(rows.map((r) => within(r).getByTestId('cluster-status').textContent)).toEqual([
      'Active',
      MESSAGES.agentNotActive,
      'In progress',
      'In creation',
      MESSAGES.clusterCreationFailed,
    ]);
    expect(rows[0]!.textContent).toContain('v1.31.2');
  });

  it('shows the facts, add-ons and storage options, and detaches after asking', async () => {
    ctx.peer.clusters.clusters = [sampleCluster()];
    renderApp('/clusters/cl-1');
    const user = userEvent.setup();
    await screen.findByTestId('cluster-page', {}, opts);
    expect(screen.getByTestId('fact-version').textContent).toBe('v1.31.2');
    expect(screen.getByTestId('fact-nodes').textContent).toBe('3');
    expect(screen.getByTestId('fact-vcpu').textContent).toBe('12');
    expect(screen.getByTestId('fact-agent').textContent).toBe('0.1.0');
    expect(screen.getByTestId('cluster-addons').textContent).toBe('Tekton PipelinesArgo CD');
    expect(screen.getByTestId('storage-row').textContent).toBe(
      'standardDefaultrancher.io/local-pathDeleteWaitForFirstConsumer',
    );
    await user.click(screen.getByRole('button', { name: 'Detach' }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Detach this cluster?');
    expect(ctx.peer.calls('POST', '/api/clusters/cl-1/detach')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Detach' }));
    await waitFor(() => expect(ctx.peer.calls('POST', '/api/clusters/cl-1/detach')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('cluster-status').textContent).toBe('Detached'), opts);
  });

  it('saves the namespaces for logs', async () => {
    ctx.peer.clusters.clusters = [sampleCluster({ selectedNamespaces: ['default'] })];
    renderApp('/clusters/cl-1');
    const user = userEvent.setup();
    const picker = await screen.findByTestId('namespace-picker', {}, opts);
    expect((within(picker).getByRole('checkbox', { name: 'default' }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(within(picker).getByRole('checkbox', { name: 'shop' }));
    await user.click(within(picker).getByRole('button', { name: 'Save' }));
    expect(await within(picker).findByText('Saved.', {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('PUT', '/api/clusters/cl-1/namespaces')[0]!.body).toEqual({
      selectedNamespaces: ['default', 'shop'],
    });
  });

  it('browses resources through the agent: pods by namespace, YAML and logs', async () => {
    ctx.peer.clusters.clusters = [sampleCluster()];
    ctx.peer.clusters.objects = [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'web-1',
        namespace: 'shop',
        status: 'Running',
        yaml: 'kind: Pod\nmetadata:\n  name: web-1\n',
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'dns',
        namespace: 'default',
        status: 'Running',
        yaml: 'kind: Pod\n',
      },
    ];
    ctx.peer.clusters.logs.set('shop/web-1', 'listening on 8080\n');
    renderApp('/clusters/cl-1');
    const user = userEvent.setup();
    expect(await screen.findAllByTestId('resource-row', {}, opts)).toHaveLength(2);
    await user.click(screen.getByRole('combobox', { name: 'Namespace' }));
    await user.click(await screen.findByRole('option', { name: 'shop' }));
    await waitFor(() => expect(screen.getAllByTestId('resource-row')).toHaveLength(1), opts);
    expect(ctx.peer.calls('GET', '/api/clusters/cl-1/resources').at(-1)!.query).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'shop',
    });
    await user.click(screen.getByTestId('resource-row'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    expect((await within(dialog).findByTestId('resource-yaml', {}, opts)).textContent).toContain(
      'name: web-1',
    );
    await user.click(within(dialog).getByRole('tab', { name: 'Logs' }));
    expect((await within(dialog).findByTestId('pod-logs', {}, opts)).textContent).toBe('listening on 8080\n');
    expect(within(dialog).getByRole('tab', { name: 'Terminal' })).toBeTruthy();
  });
});
