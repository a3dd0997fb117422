import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, type CallerPermissions } from '@slipway/contracts';
import { currentUrl, renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import {
  forwardRepositories,
  sampleDeployToken,
  sampleRepositoryDetail,
  startRepositoriesPeer,
  type RepositoriesPeer,
} from './repositories-peer';

const ctx = withSignedInPeer();
let repos: RepositoriesPeer;
let restore: () => void;

beforeAll(async () => {
  repos = await startRepositoriesPeer();
});
afterAll(() => repos.close());
beforeEach(() => {
  restore = forwardRepositories(repos);
  repos.state.repositories = [];
  repos.state.tokens.clear();
  repos.state.listFailures = 0;
  repos.state.listQueries.length = 0;
  repos.state.requests.length = 0;
});
afterEach(() => restore());

const COMMIT = '6113728f27ae4c1d9e0b8a7f6c5d4e3b2a190817';
const field = (scope: HTMLElement, name: string) => within(scope).getByRole('textbox', { name });
/** The message under a field: its helper text, which describes it. */
const helpOf = (input: HTMLElement) =>
  document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;

/** The signed-in user's grants become those of a viewer of repositories. */
function asViewer() {
  const viewer: CallerPermissions = {
    organisationRole: 'member',
    organisation: [],
    workspaceId: 'ws-1',
    workspaceRole: 'viewer',
    workspace: [{ permission: 'repositories:view' }],
  };
  ctx.peer.org.permissions.set(ctx.peer.sessions.get(ctx.token)!, viewer);
}

describe('repositories list', () => {
  it('says so when there is none yet, with the way to make one', async () => {
    renderApp('/repositories');
    const empty = await screen.findByTestId('empty-state', {}, opts);
    expect(empty.textContent).toContain('No repositories yet');
    expect(within(empty).getByRole('button', { name: 'New repository' })).toBeTruthy();
    expect(document.title).toBe('Repositories · Slipway');
    expect(repos.state.listQueries[0]).toMatchObject({ _start: '0', _end: '10', _sort: 'name' });
  });

  it('lists name, kind, default branch, last push; searches, filters by kind and sorts on the server', async () => {
    repos.state.repositories = [
      sampleRepositoryDetail({ id: 'r-1', name: 'orders', lastPushAt: '2026-05-02T10:00:00.000Z' }),
      sampleRepositoryDetail({
        id: 'r-2',
        name: 'upstream',
        kind: 'external',
        url: 'https://git.example.com/team/upstream.git',
        defaultBranch: 'develop',
      }),
    ];
    renderApp('/repositories');
    const rows = async () =>
      (await screen.findAllByTestId('repository-row', {}, opts)).map((r) => r.textContent);
    await waitFor(async () => expect(await rows()).toHaveLength(2), opts);
    const [orders, upstream] = await rows();
    expect(orders).toContain('Hosted');
    expect(orders).toContain('main');
    expect(orders).not.toContain('Never');
    expect(upstream).toContain('External');
    expect(upstream).toContain('develop');
    expect(screen.getByRole('link', { name: 'orders' }).getAttribute('href')).toBe('/repositories/r-1');

    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'ord');
    // each keystroke asks the server (the answers may come in any order; the last text's shows)
    await waitFor(
      () => expect(repos.state.listQueries).toContainEqual(expect.objectContaining({ name: 'ord' })),
      opts,
    );
    await waitFor(async () => expect(await rows()).toEqual([expect.stringContaining('orders')]), opts);
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name' }));

    await user.click(screen.getByRole('combobox', { name: 'Kind' }));
    await user.click(await screen.findByRole('option', { name: 'External' }));
    await waitFor(async () => expect(await rows()).toEqual([expect.stringContaining('upstream')]), opts);
    expect(repos.state.listQueries).toContainEqual(
      expect.objectContaining({ repository_type_id: 'external', _sort: 'name' }),
    );

    const created = screen.getByRole('columnheader', { name: 'Created' });
    await user.click(within(created).getByRole('button'));
    await waitFor(
      () =>
        expect(repos.state.listQueries).toContainEqual(
          expect.objectContaining({ repository_type_id: 'external', _sort: 'createdAt' }),
        ),
      opts,
    );
  });

  it('offers a viewer no way to make one, from the header or the empty state', async () => {
    asViewer();
    renderApp('/repositories');
    const empty = await screen.findByTestId('empty-state', {}, opts);
    const buttons = () => screen.getAllByRole('button', { name: 'New repository' }) as HTMLButtonElement[];
    await waitFor(() => expect(buttons().map((b) => b.disabled)).toEqual([true, true]), opts);
    expect(within(empty).getByRole('button', { name: 'New repository' })).toBeTruthy();
  });

  it('shows a load error with a retry that loads the list', async () => {
    repos.state.listFailures = 1;
    repos.state.repositories = [sampleRepositoryDetail()];
    renderApp('/repositories');
    expect((await screen.findByTestId('load-error', {}, opts)).textContent).toContain(
      'The repositories could not be loaded. Something broke',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('repository-row', {}, opts)).toBeTruthy();
  });
});

describe('new repository', () => {
  it('creates a hosted one, with the contract’s and the server’s messages under their fields', async () => {
    repos.state.repositories = [sampleRepositoryDetail({ id: 'r-1', name: 'orders' })];
    renderApp('/repositories');
    await screen.findByTestId('repository-row', {}, opts);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New repository' }));
    const dialog = await screen.findByRole('dialog', { name: 'New repository' });
    expect(
      (within(dialog).getByRole('radio', { name: 'Hosted in Slipway' }) as HTMLInputElement).checked,
    ).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(helpOf(field(dialog, 'Name'))).toBe(MESSAGES.nameRequired);
    await user.type(field(dialog, 'Name'), 'My Repo');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(helpOf(field(dialog, 'Name'))).toBe(MESSAGES.smallcaseOrNumbers);
    expect(repos.calls('POST', '/api/admin/repository')).toHaveLength(0);

    // the server refuses a taken name: its message stands under the name, not over the form
    await user.clear(field(dialog, 'Name'));
    await user.type(field(dialog, 'Name'), 'orders');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(
      () => expect(helpOf(field(dialog, 'Name'))).toBe('A repository with this name already exists'),
      opts,
    );
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(document.activeElement).toBe(field(dialog, 'Name'));

    await user.clear(field(dialog, 'Name'));
    await user.type(field(dialog, 'Name'), 'payments');
    await user.type(field(dialog, 'Description'), 'The payments service');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('repository-page', {}, opts)).toBeTruthy();
    expect(repos.calls('POST', '/api/admin/repository').at(-1)!.body).toEqual({
      kind: 'hosted',
      name: 'payments',
      description: 'The payments service',
      defaultBranch: 'main',
    });
    const made = repos.state.repositories.find((r) => r.name === 'payments')!;
    expect(currentUrl()).toBe(`/repositories/${made.id}`);
    expect((screen.getByTestId('repository-clone-url') as HTMLInputElement).value).toBe(made.url);
  });

  it('records an external one by URL, the URL required and the server’s refusal under it', async () => {
    renderApp('/repositories');
    const user = userEvent.setup();
    await screen.findByTestId('empty-state', {}, opts);
    await user.click(screen.getAllByRole('button', { name: 'New repository' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New repository' });
    await user.click(within(dialog).getByRole('radio', { name: 'External' }));
    expect(within(dialog).queryByRole('textbox', { name: 'Default branch' })).toBeNull();
    await user.type(field(dialog, 'Name'), 'upstream');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(helpOf(field(dialog, 'URL'))).toBe('URL is required for an external repository');
    await user.type(field(dialog, 'URL'), 'file:///etc');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(helpOf(field(dialog, 'URL'))).toBe('file URLs are not allowed'), opts);
    await user.clear(field(dialog, 'URL'));
    await user.type(field(dialog, 'URL'), 'https://git.example.com/team/upstream.git');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const page = await screen.findByTestId('repository-page', {}, opts);
    expect(repos.calls('POST', '/api/admin/repository').at(-1)!.body).toEqual({
      kind: 'external',
      name: 'upstream',
      description: '',
      url: 'https://git.example.com/team/upstream.git',
      defaultBranch: 'main',
    });
    // an external repository has neither branches nor deploy tokens here, nor a loopback warning
    expect(page.textContent).toContain('Slipway clones this repository from its host.');
    expect(screen.queryByRole('heading', { name: 'Deploy tokens' })).toBeNull();
    expect(screen.queryByTestId('loopback-warning')).toBeNull();
  });
});

describe('repository detail', () => {
  beforeEach(() => {
    repos.state.repositories = [
      sampleRepositoryDetail({
        description: 'The orders service',
        lastPushAt: '2026-05-02T10:00:00.000Z',
        branches: [
          { name: 'main', commit: COMMIT },
          { name: 'feature/x', commit: 'abcdef0123456789abcdef0123456789abcdef01' },
        ],
      }),
    ];
    repos.state.tokens.set('repo-1', [sampleDeployToken()]);
  });

  it('shows the clone URL with a copy button, how to clone and push, and the branches', async () => {
    renderApp('/repositories/repo-1');
    const page = await screen.findByTestId('repository-page', {}, opts);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('orders');
    expect(page.textContent).toContain('The orders service');
    const url = screen.getByTestId('repository-clone-url') as HTMLInputElement;
    expect(url.value).toBe('http://127.0.0.1:8080/git/ws-1/orders.git');
    expect(url.getAttribute('dir')).toBe('ltr');
    expect(screen.getByTestId('loopback-warning').textContent).toContain(
      '(127.0.0.1:8080) only reaches this machine',
    );
    const commands = screen.getByTestId('repository-git-commands');
    expect(commands.getAttribute('dir')).toBe('ltr');
    expect(commands.textContent).toContain(
      'git clone http://x-token:<token>@127.0.0.1:8080/git/ws-1/orders.git',
    );
    expect(commands.textContent).toContain('git push origin main');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Copy URL' }));
    expect(await navigator.clipboard.readText()).toBe('http://127.0.0.1:8080/git/ws-1/orders.git');
    expect(await screen.findByText('Copied to the clipboard.')).toBeTruthy();

    const branches = screen.getAllByTestId('repository-branch-row');
    expect(branches.map((b) => b.textContent)).toEqual(['maindefault6113728', 'feature/xabcdef0']);
    expect(within(branches[0]!).getByTitle(COMMIT)).toBeTruthy();
  });

  it('makes a deploy token and shows it once, with copy', async () => {
    renderApp('/repositories/repo-1');
    await screen.findAllByTestId('deploy-token-row', {}, opts);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New deploy token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New deploy token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(helpOf(field(dialog, 'Name'))).toBe(MESSAGES.nameIsRequired);
    await user.type(field(dialog, 'Name'), 'ci-push');
    await user.click(within(dialog).getByRole('combobox', { name: 'Access' }));
    await user.click(await screen.findByRole('option', { name: 'Write (clone and push)' }));
    const days = field(dialog, 'Expires in (days)');
    await user.clear(days);
    await user.type(days, '400');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(helpOf(field(dialog, 'Expires in (days)'))).toBe('at most 366 days');
    await user.clear(days);
    await user.type(days, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByTestId('deploy-token-dialog', {}, opts);
    expect(within(shown).getByRole('heading').textContent).toBe('Deploy token ci-push');
    const token = (within(shown).getByTestId('deploy-token-value') as HTMLInputElement).value;
    expect(token).toMatch(/^slpdt_/);
    expect(shown.textContent).toContain(
      `git clone http://x-token:${token}@127.0.0.1:8080/git/ws-1/orders.git`,
    );
    await user.click(within(shown).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(token);
    expect(repos.calls('POST', '/api/admin/repository/repo-1/deploy-tokens').at(-1)!.body).toEqual({
      name: 'ci-push',
      access: 'write',
      expiresInDays: 30,
    });
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.getAllByTestId('deploy-token-row')).toHaveLength(2), opts);
    expect(screen.getAllByTestId('deploy-token-row')[0]!.textContent).toContain('Write (clone and push)');
    expect(document.body.textContent).not.toContain(token);
  });

  it('asks before revoking a deploy token, then revokes it', async () => {
    renderApp('/repositories/repo-1');
    const row = await screen.findByTestId('deploy-token-row', {}, opts);
    expect(row.textContent).toContain('Active');
    const user = userEvent.setup();
    await user.click(within(row).getByRole('button', { name: 'Revoke the deploy token ci-read' }));
    const ask = await screen.findByRole('dialog', { name: 'Revoke the deploy token ci-read?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(repos.calls('DELETE', '/api/admin/repository/repo-1/deploy-tokens/tok-1')).toHaveLength(0);
    // once the dialog has gone, the page is there again for assistive technology
    await user.click(await screen.findByRole('button', { name: 'Revoke the deploy token ci-read' }, opts));
    const again = await screen.findByRole('dialog', { name: 'Revoke the deploy token ci-read?' });
    await user.click(within(again).getByRole('button', { name: 'Revoke' }));
    await waitFor(
      () => expect(repos.calls('DELETE', '/api/admin/repository/repo-1/deploy-tokens/tok-1')).toHaveLength(1),
      opts,
    );
    await waitFor(
      () => expect(screen.getByTestId('deploy-token-row').textContent).toContain('Revoked'),
      opts,
    );
    expect(within(screen.getByTestId('deploy-token-row')).queryByRole('button')).toBeNull();
  });

  it('edits the description and default branch', async () => {
    renderApp('/repositories/repo-1');
    await screen.findByTestId('repository-page', {}, opts);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit orders' });
    await user.clear(field(dialog, 'Default branch'));
    await user.type(field(dialog, 'Default branch'), 'a..b');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(helpOf(field(dialog, 'Default branch'))).toMatch(/^Branch must be a valid git branch name/);
    await user.clear(field(dialog, 'Default branch'));
    await user.type(field(dialog, 'Default branch'), 'develop');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(repos.calls('PUT', '/api/admin/repository/repo-1').at(-1)!.body).toEqual({
      description: 'The orders service',
      defaultBranch: 'develop',
    });
    await waitFor(
      () => expect(screen.getByTestId('repository-facts').textContent).toContain('develop'),
      opts,
    );
  });

  it('asks before deleting, saying what goes with it and what stays, then goes back to the list', async () => {
    renderApp('/repositories/repo-1');
    await screen.findByTestId('repository-page', {}, opts);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete the repository orders?' });
    expect(ask.textContent).toContain(
      'Its git data (every branch and commit) and its deploy tokens are deleted',
    );
    expect(ask.textContent).toContain('Applications that build from it stay, without a repository.');
    await user.click(within(ask).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(repos.calls('DELETE', '/api/admin/repository/repo-1')).toHaveLength(1), opts);
    expect(await screen.findByText('No repositories yet', {}, opts)).toBeTruthy();
    expect(currentUrl()).toBe('/repositories');
  });

  it('shows a load error with a retry for a repository that is not there', async () => {
    renderApp('/repositories/nope');
    expect((await screen.findByTestId('load-error', {}, opts)).textContent).toContain(
      'The repository could not be loaded. Repository not found',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('lets a viewer look but not create, change, revoke or delete', async () => {
    asViewer();
    renderApp('/repositories');
    await screen.findByTestId('repository-row', {}, opts);
    const disabled = (name: string) => (screen.getByRole('button', { name }) as HTMLButtonElement).disabled;
    await waitFor(() => expect(disabled('New repository')).toBe(true), opts);
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'orders' }));
    const row = await screen.findByTestId('deploy-token-row', {}, opts);
    await waitFor(() => expect(disabled('Delete')).toBe(true), opts);
    expect(disabled('Edit')).toBe(true);
    expect(disabled('New deploy token')).toBe(true);
    expect(
      (within(row).getByRole('button', { name: 'Revoke the deploy token ci-read' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);
    // the clone URL is still there to copy
    expect((screen.getByTestId('repository-clone-url') as HTMLInputElement).value).toContain('/orders.git');
  });
});
