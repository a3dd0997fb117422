import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEY, browserFingerprint, FINGERPRINT_STORAGE_KEY } from '../features/auth/auth-storage';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../test/api-peer';
import { currentUrl, renderApp, storeSession } from '../test/app';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
  peer.addUser({ email: 'ada@example.com', password: 'Engine#1843' });
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };
const ada = () => peer.users.get('ada@example.com')!;

describe('the route guard', () => {
  it('sends a visitor without a session to the login page, remembering where they were going', async () => {
    renderApp('/settings/team?tab=roles');
    await screen.findByRole('heading', { name: 'Sign in to Slipway' }, opts);
    expect(currentUrl()).toBe(`/login?next=${encodeURIComponent('/settings/team?tab=roles')}`);
    expect(screen.queryByTestId('app-shell')).toBeNull();
  });

  it('keeps a stored session across a reload', async () => {
    const { token } = peer.signIn(ada());
    storeSession(token, 'ws-2');
    const { store } = renderApp('/pipelines');
    await screen.findByTestId('area-pipelines', {}, opts);
    expect(store.getState().auth).toMatchObject({ token, projectId: 'ws-2' });
    await waitFor(() =>
      expect(peer.calls('GET', '/api/profile').at(-1)?.headers['x-workspace-id']).toBe('ws-2'),
    );
  });

  it('signs out when the API answers 401 (session ended elsewhere) and goes to the login page', async () => {
    storeSession('tok-revoked');
    const { store } = renderApp('/dashboard');
    await screen.findByRole('heading', { name: 'Sign in to Slipway' }, opts);
    expect(currentUrl()).toBe('/login?next=%2Fdashboard');
    expect(store.getState().auth.token).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
  });
});

describe('the top bar', () => {
  it('picks the first workspace when none is chosen, and switches', async () => {
    const { token } = peer.signIn(ada());
    storeSession(token, null);
    const { store } = renderApp('/dashboard');
    const picker = await screen.findByTestId('workspace-picker', {}, opts);
    await waitFor(() => expect(store.getState().auth.projectId).toBe('ws-1'));
    const user = userEvent.setup();
    await user.click(within(picker).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'Staging' }));
    expect(store.getState().auth.projectId).toBe('ws-2');
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!)).toEqual({ token, projectId: 'ws-2' });
  });

  it("shows the user's initials, opens profile settings and signs out", async () => {
    const { token } = peer.signIn(ada());
    storeSession(token);
    const { store } = renderApp('/dashboard');
    const user = userEvent.setup();
    const avatar = await screen.findByRole('button', { name: 'Account menu for Ada Lovelace' }, opts);
    expect(avatar.textContent).toBe('AL');
    await user.click(avatar);
    await user.click(await screen.findByRole('menuitem', { name: 'Profile settings' }));
    await screen.findByRole('heading', { name: 'Profile settings', level: 1 }, opts);

    await user.click(screen.getByRole('button', { name: 'Account menu for Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in to Slipway' }, opts);
    expect(currentUrl()).toBe('/login');
    expect(store.getState().auth.token).toBeNull();
    expect(localStorage.getItem(AUTH_STORAGE_KEY)).toBeNull();
    expect(peer.calls('POST', '/api/auth/logout').at(-1)!.headers.authorization).toBe(token);
    expect(peer.sessions.has(token)).toBe(false);
  });
});

describe('the browser fingerprint', () => {
  it('is made once and then kept', () => {
    const first = browserFingerprint();
    expect(first).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(localStorage.getItem(FINGERPRINT_STORAGE_KEY)).toBe(first);
    expect(browserFingerprint()).toBe(first);
  });
});
