import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSWORD_RULE_MESSAGE } from '@slipway/contracts';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { currentUrl, renderApp } from '../../test/app';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
  peer.state.providers = [];
});
afterEach(() => {
  vi.useRealTimers();
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

async function signUp(email: string, password = 'Engine#1843') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('First name', {}, opts), 'Grace');
  await user.type(screen.getByLabelText('Last name'), 'Hopper');
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
  return user;
}

describe('sign up', () => {
  it('shows the password rule, and the messages of the shared schema', async () => {
    renderApp('/signup');
    expect(await screen.findByText(PASSWORD_RULE_MESSAGE, {}, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const first = screen.getByLabelText('First name');
    expect(first.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(first.getAttribute('aria-describedby')!)!.textContent).toBe(
      'Name required',
    );
    expect(screen.getByText('Email is a required field')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(document.activeElement).toBe(first);
    await user.type(screen.getByLabelText('Password'), 'lowercase');
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(peer.calls('POST', '/api/auth/signup')).toEqual([]);
  });

  it("goes on to the code, says 'Invalid OTP!' for a wrong one and signs in with the right one", async () => {
    const { store } = renderApp('/signup');
    const user = await signUp('grace@example.com');
    await screen.findByRole('heading', { name: 'Verify your email' }, opts);
    expect(currentUrl()).toBe('/verify-email?email=grace%40example.com');
    expect(screen.getByText(/We sent a 6-digit code to grace@example.com/)).toBeTruthy();
    expect(peer.calls('POST', '/api/auth/signup')[0]!.body).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      password: 'Engine#1843',
    });

    const code = screen.getByLabelText('Verification code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(code);
    await user.type(code, '000000{Enter}');
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe('Invalid OTP!');
    expect(store.getState().auth.token).toBeNull();

    await user.clear(code);
    await user.type(code, '12');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Invalid OTP!')).toBeTruthy();

    await user.clear(code);
    await user.type(code, '123456{Enter}');
    await screen.findByTestId('area-dashboard', {}, opts);
    expect(store.getState().auth.token).toMatch(/^tok-/);
  });

  it('keeps the resend link disabled while the 60 s countdown runs', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    renderApp('/verify-email?email=grace%40example.com');
    const resend = await screen.findByTestId('resend-code', {}, opts);
    expect(resend.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText("Didn't get a code? Resend in")).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('01:00');
    act(() => vi.advanceTimersByTime(59_000));
    expect(screen.getByRole('timer').textContent).toBe('00:01');
    expect(resend.hasAttribute('disabled')).toBe(true);
    act(() => vi.advanceTimersByTime(1_500));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(resend.hasAttribute('disabled')).toBe(false);

    const user = userEvent.setup();
    await user.click(resend);
    const notice = await screen.findByText('We sent a new code to grace@example.com.', {}, opts);
    expect(notice.closest('[role="status"]')).toBeTruthy();
    expect(peer.calls('POST', '/api/auth/resend_code').at(-1)!.body).toEqual({ email: 'grace@example.com' });
    expect(screen.getByTestId('resend-code').hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('timer').textContent).toBe('01:00');
  });

  it('offers G Suite and Azure sign-up when both are enabled', async () => {
    peer.state.providers = [
      { id: 'google', name: 'G Suite' },
      { id: 'azure', name: 'Azure' },
    ];
    renderApp('/signup');
    const buttons = await screen.findByTestId('oauth-buttons', {}, opts);
    expect(within(buttons).getByRole('button', { name: 'Sign up with G Suite' })).toBeTruthy();
    expect(within(buttons).getByRole('button', { name: 'Sign up with Azure' })).toBeTruthy();
  });
});
