import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OAUTH_HANDOFF_INVALID_MESSAGE } from '@slipway/contracts';
import { startApiPeer, forwardFetchTo, type ApiPeer } from '../../test/api-peer';
import { currentUrl, renderApp } from '../../test/app';
import { fingerprintSet } from './auth-slice';
import { AUTH_STORAGE_KEY } from './auth-storage';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
  peer.addUser({ email: 'ada@example.com', password: 'Engine#1843' });
  peer.addUser({ email: 'new@example.com', password: 'Engine#1843', verified: false });
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
  peer.state.providers = [];
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

async function fillLogin(email: string, password: string) {
  const user = userEvent.setup();
  const emailInput = await screen.findByLabelText('Email', {}, opts);
  if (email) await user.type(emailInput, email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  return user;
}

describe('login', () => {
  it('signs in, stores the session and opens the page it was sent from', async () => {
    const { store } = renderApp('/login?next=%2Fpipelines');
    store.dispatch(fingerprintSet('fp-test'));
    const email = await screen.findByLabelText('Email', {}, opts);
    expect(document.activeElement).toBe(email);
    const user = await fillLogin('Ada@Example.com', 'Engine#1843');
    await user.keyboard('{Enter}');
    await screen.findByTestId('area-pipelines', {}, opts);
    expect(currentUrl()).toBe('/pipelines');
    const { token, projectId } = store.getState().auth;
    expect(token).toMatch(/^tok-/);
    expect(projectId).toBe('ws-1');
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY)!)).toEqual({ token, projectId });
    const [login] = peer.calls('POST', '/api/auth/login');
    expect(login!.body).toEqual({ email: 'ada@example.com', password: 'Engine#1843' });
    expect(login!.headers['x-browserfingerprint']).toBe('fp-test');
    const profile = peer.calls('GET', '/api/profile').at(-1)!;
    expect(profile.headers.authorization).toBe(token);
    // The top bar shows who is signed in, and in which workspace.
    expect((await screen.findByTestId('user-menu', {}, opts)).textContent).toBe('AL');
  });

  it("says 'Invalid credentials' for a wrong password and stays signed out", async () => {
    const { store } = renderApp('/login');
    const user = await fillLogin('ada@example.com', 'Wrong#pass1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe('Invalid credentials');
    expect(store.getState().auth.token).toBeNull();
    expect(currentUrl()).toBe('/login');
  });

  it("says 'Email is a required field' and 'Invalid email address' without calling the API", async () => {
    renderApp('/login');
    const before = peer.requests.length;
    const user = await fillLogin('', 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText('Email');
    expect(await screen.findByText('Email is a required field')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(email);
    await user.type(email, 'not-an-address');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(peer.requests.slice(before).filter((r) => r.path.startsWith('/api/auth/login'))).toEqual([]);
  });

  it('sends an unverified address to the verification screen', async () => {
    renderApp('/login');
    const user = await fillLogin('new@example.com', 'Engine#1843');
    await user.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Verify your email' }, opts);
    expect(currentUrl()).toBe('/verify-email?email=new%40example.com&resend=1');
    expect(screen.getByTestId('resend-code').hasAttribute('disabled')).toBe(false);
  });

  it('offers only the single sign-on providers the server has enabled', async () => {
    peer.state.providers = [{ id: 'azure', name: 'Azure' }];
    renderApp('/login');
    expect((await screen.findByTestId('oauth-buttons', {}, opts)).textContent).toContain(
      'Sign in with Azure',
    );
    expect(screen.queryByText('Sign in with G Suite')).toBeNull();
  });

  it('finishes a single sign-on round trip by exchanging the one-time code of #oauth', async () => {
    peer.state.oauthCodes.set('one-time-1', [...peer.users.values()][0]!);
    const { store } = renderApp('/login#oauth=one-time-1');
    await screen.findByTestId('area-dashboard', {}, opts);
    expect(peer.calls('POST', '/api/auth/oauth/exchange').at(-1)!.body).toEqual({ code: 'one-time-1' });
    const { token, projectId } = store.getState().auth;
    expect(token).toMatch(/^tok-/);
    expect(projectId).toBe('ws-2');
    // the code left the address bar at once and never reached a URL the app requested
    expect(window.location.hash).toBe('');
    expect(peer.requests.some((r) => JSON.stringify(r.query).includes('one-time-1'))).toBe(false);
  });

  it('says so when the one-time code was used or has expired', async () => {
    const { store } = renderApp('/login#oauth=used-code');
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe(OAUTH_HANDOFF_INVALID_MESSAGE);
    expect(store.getState().auth.token).toBeNull();
    expect(await screen.findByLabelText('Email')).toBeTruthy();
  });

  it('shows the error a single sign-on round trip came back with', async () => {
    renderApp('/login?error=Sign-in%20was%20cancelled');
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe('Sign-in was cancelled');
  });
});

describe('sign-in links', () => {
  it('links to sign up and forgot password', async () => {
    renderApp('/login');
    await screen.findByLabelText('Email', {}, opts);
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
    await waitFor(() => expect(document.title).toBe('Sign in to Slipway · Slipway'));
  });
});

describe('directory sign-in (LDAP)', () => {
  it('signs in with the directory username and password at the organisation’s link', async () => {
    renderApp('/login?ldap=org-1');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Sign in with your directory' }, opts)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Name is required', {}, opts)).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Username' }), 'ada');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid credentials', {}, opts)).toBeTruthy();
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Engine#1843');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentUrl()).toBe('/dashboard'), opts);
    expect(peer.calls('POST', '/api/auth/ldap_login').at(-1)!.body).toEqual({
      username: 'ada',
      password: 'Engine#1843',
      organisationId: 'org-1',
    });
  });

  it('offers the e-mail sign-in instead', async () => {
    renderApp('/login?ldap=org-1');
    await userEvent
      .setup()
      .click(await screen.findByRole('link', { name: 'Sign in with e-mail instead' }, opts));
    expect(await screen.findByRole('heading', { name: 'Sign in to Slipway' }, opts)).toBeTruthy();
  });
});
