import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_RUNS_IN_PROGRESS_RULE_MESSAGE, runLimitRequestSchema, type RunLimit } from '@slipway/contracts';
import { renderApp, storeSession } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { fail, forwardPaths, invalid, serveRoutes, type RecordedRequest } from '../../test/route-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

/** The run-limit routes as the server answers them: limits per workspace and per pipeline. */
const limits = new Map<string, number | null>();
const requests: RecordedRequest[] = [];
let peer: Awaited<ReturnType<typeof serveRoutes>>;
let undo: () => void;

function answer(kind: string, id: string): RunLimit {
  const workspace = limits.get('workspaces/ws-1') ?? 4;
  const own = limits.get(`${kind}/${id}`) ?? null;
  return kind === 'workspaces'
    ? { maxRunsInProgress: own, defaultLimit: 4, effective: own ?? 4 }
    : {
        maxRunsInProgress: own,
        defaultLimit: 2,
        effective: Math.min(own ?? 2, workspace),
        workspaceLimit: workspace,
      };
}

beforeAll(async () => {
  peer = await serveRoutes(requests, (method, path, _query, body) => {
    const [, kind, id] = /^\/api\/(workspaces|pipelines)\/([^/]+)\/run-limit$/.exec(path) ?? [];
    if (!kind || !id || (kind === 'workspaces' && id !== 'ws-1')) return fail(404, 'Not found');
    if (method === 'PUT') {
      const parsed = runLimitRequestSchema.safeParse(body);
      if (!parsed.success) return invalid(parsed.error);
      limits.set(`${kind}/${id}`, parsed.data.maxRunsInProgress);
    }
    return [200, answer(kind, id)];
  });
});
afterAll(() => peer.close());
beforeEach(() => {
  limits.clear();
  requests.length = 0;
  undo = forwardPaths(peer.origin, /\/run-limit$/);
});
afterEach(() => undo());

describe('admission limits (runs in progress at once)', () => {
  it("sets, refuses and clears the workspace's in Settings → Account", async () => {
    renderApp('/settings/account');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Runs of this workspace at once' }, opts);
    const field = within(form).getByRole('spinbutton', { name: 'Runs of this workspace at once' });
    expect((field as HTMLInputElement).value).toBe('');
    expect(await within(form).findByText('Now: 4 at once', {}, opts)).toBeTruthy();
    const puts = () => peer.calls('PUT', '/api/workspaces/ws-1/run-limit');

    for (const bad of ['0', '101', '2.5']) {
      await user.clear(field);
      await user.type(field, bad);
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      expect(await within(form).findByText(MAX_RUNS_IN_PROGRESS_RULE_MESSAGE, {}, opts)).toBeTruthy();
    }
    expect(puts()).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '1');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The limit is saved.', {}, opts)).toBeTruthy();
    expect(puts().at(-1)!.body).toEqual({ maxRunsInProgress: 1 });
    expect(await screen.findByText('Now: 1 at once', {}, opts)).toBeTruthy();

    const again = await screen.findByRole('spinbutton', { name: 'Runs of this workspace at once' }, opts);
    await user.clear(again);
    await user.click(
      within(screen.getByRole('form', { name: 'Runs of this workspace at once' })).getByRole('button', {
        name: 'Save',
      }),
    );
    await vi.waitFor(() => expect(puts().at(-1)!.body).toEqual({ maxRunsInProgress: null }), opts);
  });

  it("sets a pipeline's on its page and says when the workspace's limit binds", async () => {
    limits.set('workspaces/ws-1', 3);
    ctx.peer.pipelines.pipelines = [samplePipeline()];
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Runs of this pipeline at once' }, opts);
    const field = within(form).getByRole('spinbutton', { name: 'Runs of this pipeline at once' });
    expect(await within(form).findByText('Now: 2 at once', {}, opts)).toBeTruthy();
    await user.type(field, '5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The limit is saved.', {}, opts)).toBeTruthy();
    expect(peer.calls('PUT', '/api/pipelines/pl-1/run-limit').at(-1)!.body).toEqual({ maxRunsInProgress: 5 });
    expect(
      await screen.findByText("The workspace's limit of 3 also holds: at most 3 run at once.", {}, opts),
    ).toBeTruthy();
  });

  it('is there whole under a 390 px phone media query (field and Save)', async () => {
    const desktop = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...desktop(query), matches: /max-width/.test(query) });
    try {
      ctx.peer.pipelines.pipelines = [samplePipeline()];
      renderApp('/pipelines/pl-1');
      const form = await screen.findByRole('form', { name: 'Runs of this pipeline at once' }, opts);
      expect(within(form).getByRole('spinbutton', { name: 'Runs of this pipeline at once' })).toBeTruthy();
      expect(within(form).getByRole('button', { name: 'Save' })).toBeTruthy();
    } finally {
      window.matchMedia = desktop;
    }
  });

  it('is read-only for someone who may not edit the workspace', async () => {
    const developer = ctx.peer.addUser({
      email: `dev-${Math.random()}@example.com`,
      password: 'Engine#1843',
    });
    ctx.peer.org.permissions.set(developer.id, {
      organisationRole: 'member',
      organisation: [{ permission: 'organisation:view' }],
      workspaceId: 'ws-1',
      workspaceRole: 'developer',
      workspace: [{ permission: 'workspace:view' }],
    });
    storeSession(ctx.peer.signIn(developer).token);
    renderApp('/settings/account');
    const form = await screen.findByRole('form', { name: 'Runs of this workspace at once' }, opts);
    expect(within(form).getByRole('spinbutton', { name: 'Runs of this workspace at once' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(form).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });
});
