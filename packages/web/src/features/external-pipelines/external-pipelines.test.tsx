import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXTERNAL_SOURCE_URL_MESSAGE, type ExternalPipeline } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import {
  forwardExternalPipelines,
  startExternalPipelinesPeer,
  type ExternalPipelinesPeer,
} from './external-pipelines-peer';

const ctx = withSignedInPeer();
let peer: ExternalPipelinesPeer;
let restore: () => void;

beforeAll(async () => {
  peer = await startExternalPipelinesPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restore = forwardExternalPipelines(peer);
  peer.state.pipelines = [];
  peer.state.requests.length = 0;
  peer.state.refuse = null;
  peer.state.nextSync = { outcome: 'unchanged', syncError: null };
  ctx.peer.studio.secrets.splice(0, Infinity, {
    id: 'secret-gl',
    name: 'gitlab-token',
    description: '',
    type: 'token',
    global: false,
    keys: ['token'],
    createdAt: '2026-04-01T00:00:00.000Z',
    updatedAt: '2026-04-01T00:00:00.000Z',
  });
});
afterEach(() => restore());

function seed(patch: Partial<ExternalPipeline> = {}): ExternalPipeline {
  const p: ExternalPipeline = {
    id: 'ext-1',
    kind: 'pipeline',
    name: 'shop-ci',
    description: '',
    version: 3,
    rollbackPipelineId: null,
    createdAt: '2026-04-01T00:00:00.000Z',
    updatedAt: '2026-04-01T00:00:00.000Z',
    source: {
      kind: 'git',
      url: 'https://git.example.com/shop.git',
      revision: 'release',
      path: '.tekton/ci.yaml',
      secret: null,
    },
    lastSyncedAt: '2026-05-01T10:00:00.000Z',
    syncError: null,
    ...patch,
  };
  peer.state.pipelines.push(p);
  return p;
}

describe('external pipelines page', () => {
  it('lists by name and sorts the other way from the Name header (the server sorts)', async () => {
    seed({ id: 'ext-1', name: 'shop-ci' });
    seed({ id: 'ext-2', name: 'app-ci' });
    renderApp('/external-pipelines');
    const rows = async () =>
      (await screen.findAllByTestId('external-pipeline-row', {}, opts)).map((r) => r.textContent ?? '');
    await waitFor(async () => expect((await rows())[0]).toContain('app-ci'));
    const header = screen.getByRole('columnheader', { name: 'Name' });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    await userEvent.setup().click(within(header).getByRole('button', { name: 'Name' }));
    await waitFor(async () => expect((await rows())[0]).toContain('shop-ci'));
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
  });

  it('starts empty, checks the form, shows where the server refused, and adds one', async () => {
    renderApp('/external-pipelines');
    expect(await screen.findByText('No external pipelines yet', {}, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add external pipeline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add external pipeline' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'shop-ci');
    await user.type(within(dialog).getByLabelText(/^Repository URL/), 'ftp://git.example.com/shop.git');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText(EXTERNAL_SOURCE_URL_MESSAGE)).toBeTruthy();
    expect(peer.calls('POST', '/api/external-pipelines')).toHaveLength(0);

    const url = within(dialog).getByLabelText(/^Repository URL/);
    await user.clear(url);
    await user.type(url, 'https://git.example.com/shop.git');
    const path = within(dialog).getByLabelText(/^Path to the pipeline file/);
    await user.clear(path);
    await user.type(path, 'ci/missing.yaml');
    await user.click(within(dialog).getByRole('combobox', { name: 'Secret' }));
    await user.click(await screen.findByRole('option', { name: 'gitlab-token' }));
    peer.state.refuse = {
      path: 'body.source.path',
      message: 'ci/missing.yaml not found at revision "main" (commit 0123456789ab)',
    };
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      await within(dialog).findByText('ci/missing.yaml not found at revision "main" (commit 0123456789ab)'),
    ).toBeTruthy();

    await user.clear(path);
    await user.type(path, '.tekton/ci.yaml');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const row = await screen.findByTestId('external-pipeline-row', {}, opts);
    expect(peer.calls('POST', '/api/external-pipelines').at(-1)!.body).toEqual({
      name: 'shop-ci',
      description: '',
      source: {
        kind: 'git',
        url: 'https://git.example.com/shop.git',
        revision: 'main',
        path: '.tekton/ci.yaml',
        secret: 'gitlab-token',
      },
    });
    expect(row.textContent).toContain('https://git.example.com/shop.git');
    expect(row.textContent).toContain('.tekton/ci.yaml');
    expect(row.textContent).toContain('Synced');
    const created = peer.state.pipelines[0]!;
    expect(within(row).getByRole('link', { name: 'shop-ci' }).getAttribute('href')).toBe(
      `/pipelines/${created.id}`,
    );
  });

  it('syncs now: a failure shows its error in the row, a change says the new version', async () => {
    seed();
    renderApp('/external-pipelines');
    const row = await screen.findByTestId('external-pipeline-row', {}, opts);
    expect(row.textContent).toContain('release');
    const user = userEvent.setup();
    const syncNow = async () => {
      await user.click(screen.getByRole('button', { name: 'Actions for external pipeline shop-ci' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Sync now' }));
    };
    peer.state.nextSync = {
      outcome: 'failed',
      syncError:
        '.tekton/ci.yaml is not a valid pipeline: spec.tasks[0].taskRef (line 9, column 9): unknown task "nope"',
    };
    await syncNow();
    expect(
      await screen.findByText('shop-ci could not be synced; version 3 stays the one that runs.', {}, opts),
    ).toBeTruthy();
    expect((await screen.findByTestId('external-pipeline-sync-error', {}, opts)).textContent).toContain(
      'line 9, column 9',
    );
    expect(screen.getByTestId('external-pipeline-row').textContent).toContain('Sync failed');

    peer.state.nextSync = { outcome: 'changed', syncError: null };
    await syncNow();
    expect(
      await screen.findByText('shop-ci synced: version 4 is the new definition.', {}, opts),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('external-pipeline-sync-error')).toBeNull(), opts);
    expect(peer.calls('POST', '/api/external-pipelines/ext-1/sync')).toHaveLength(2);
  });

  it('edits the revision and deletes after confirmation', async () => {
    seed();
    renderApp('/external-pipelines');
    await screen.findByTestId('external-pipeline-row', {}, opts);
    const user = userEvent.setup();
    const actions = () =>
      user.click(screen.getByRole('button', { name: 'Actions for external pipeline shop-ci' }));
    await actions();
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit external pipeline shop-ci' });
    const revision = within(dialog).getByLabelText(/^Revision/);
    expect((revision as HTMLInputElement).value).toBe('release');
    await user.clear(revision);
    await user.type(revision, 'v2.0.0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(
      () => expect(screen.getByTestId('external-pipeline-row').textContent).toContain('v2.0.0'),
      opts,
    );
    expect(peer.calls('PUT', '/api/external-pipelines/ext-1').at(-1)!.body).toMatchObject({
      source: { revision: 'v2.0.0', url: 'https://git.example.com/shop.git', secret: null },
    });

    await actions();
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete external pipeline shop-ci?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No external pipelines yet', {}, opts)).toBeTruthy();
    expect(peer.calls('DELETE', '/api/external-pipelines/ext-1')).toHaveLength(1);
  });
});

describe('an external pipeline on the pipeline page', () => {
  // jsdom has no client rects for text ranges; the definition editor measures with them
  Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => new DOMRect();

  it('says where it comes from, keeps the editor read-only, links to External pipelines and syncs', async () => {
    const ext = seed({ syncError: 'revision "release" not found' });
    ctx.peer.pipelines.pipelines = [
      samplePipeline({ id: ext.id, name: ext.name, version: ext.version, source: ext.source }),
      samplePipeline({ id: 'pl-plain', name: 'plain' }),
    ];
    renderApp(`/pipelines/${ext.id}`);
    const marker = await screen.findByTestId('external-pipeline-marker', {}, opts);
    expect(within(marker).getByTestId('external-repository').textContent).toBe(
      'https://git.example.com/shop.git',
    );
    expect(within(marker).getByTestId('external-revision').textContent).toBe('release');
    expect(within(marker).getByTestId('external-path').textContent).toBe('.tekton/ci.yaml');
    await waitFor(
      () => expect(within(marker).getByTestId('external-last-synced').textContent).not.toBe('—'),
      opts,
    );
    expect((await within(marker).findByTestId('external-sync-error', {}, opts)).textContent).toContain(
      'revision "release" not found',
    );
    expect(within(marker).getByRole('link', { name: 'Manage external pipelines' }).getAttribute('href')).toBe(
      '/external-pipelines',
    );
    // read-only: the definition has no Save and cannot be typed into (the run limit's form has its own)
    const definition = screen.getByRole('form', { name: 'Pipeline definition' });
    expect(within(definition).queryByRole('button', { name: 'Save' })).toBeNull();
    const editor = await screen.findByTestId('pipeline-definition-editor', {}, opts);
    await waitFor(() => expect(editor.querySelector('.cm-content')).not.toBeNull(), opts);
    expect(editor.querySelector('.cm-content')!.getAttribute('contenteditable')).toBe('false');
    expect((screen.getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).readOnly).toBe(true);

    peer.state.nextSync = { outcome: 'changed', syncError: null };
    const user = userEvent.setup();
    await user.click(within(marker).getByRole('button', { name: 'Sync now' }));
    expect(
      await within(marker).findByText('shop-ci synced: version 4 is the new definition.', {}, opts),
    ).toBeTruthy();
    expect(peer.calls('POST', `/api/external-pipelines/${ext.id}/sync`)).toHaveLength(1);
    await waitFor(() => expect(within(marker).queryByTestId('external-sync-error')).toBeNull(), opts);
  });

  it('leaves an ordinary pipeline editable, without the marker', async () => {
    ctx.peer.pipelines.pipelines = [samplePipeline({ id: 'pl-plain', name: 'plain' })];
    renderApp('/pipelines/pl-plain');
    expect(await screen.findByRole('button', { name: 'Save' }, opts)).toBeTruthy();
    expect(screen.queryByTestId('external-pipeline-marker')).toBeNull();
  });
});
