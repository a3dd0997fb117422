import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { renderApp } from '../../test/app';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
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

describe('forgot password', () => {
  it("answers 'Check your email' with a link to send it again", async () => {
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email', {}, opts), 'nobody@example.com{Enter}');
    expect(await screen.findByRole('heading', { name: 'Check your email' }, opts)).toBeTruthy();
    expect(screen.getByText(/nobody@example.com/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resend link' }));
    const notice = await screen.findByText('We sent the link again.', {}, opts);
    expect(notice.closest('[role="status"]')).toBeTruthy();
    expect(peer.calls('POST', '/api/auth/forgot_password').map((r) => r.body)).toEqual([
      { email: 'nobody@example.com' },
      { email: 'nobody@example.com' },
    ]);
  });

  it('checks the address before asking', async () => {
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send reset link' }, opts));
    expect(screen.getByText('Email is a required field')).toBeTruthy();
  });
});

describe('reset password', () => {
  it("says 'Passwords must match', then changes the password with the link's token", async () => {
    renderApp('/reset-password?token=reset-token-1');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Reset password' }, opts)).toBeTruthy();
    await user.type(screen.getByLabelText('New password'), 'Engine#1843');
    await user.type(screen.getByLabelText('Confirm new password'), 'Engine#1844{Enter}');
    const confirm = screen.getByLabelText('Confirm new password');
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Passwords must match')).toBeTruthy();
    expect(peer.calls('POST', '/api/auth/reset_password')).toEqual([]);

    await user.clear(confirm);
    await user.type(confirm, 'Engine#1843{Enter}');
    expect(await screen.findByText(/Your password has been changed/, {}, opts)).toBeTruthy();
    expect(peer.calls('POST', '/api/auth/reset_password')[0]!.body).toEqual({
      token: 'reset-token-1',
      password: 'Engine#1843',
      confirmPassword: 'Engine#1843',
    });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });

  it('shows the reason when the link has been used already', async () => {
    renderApp('/reset-password?token=used-token');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password', {}, opts), 'Engine#1843');
    await user.type(screen.getByLabelText('Confirm new password'), 'Engine#1843{Enter}');
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe('This link has expired');
  });

  it("asks for 'Please confirm your new password' when the confirmation is empty", async () => {
    renderApp('/set-password?token=invite-1');
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Set new password' }, opts)).toBeTruthy();
    await user.type(screen.getByLabelText('New password'), 'Engine#1843{Enter}');
    expect(screen.getByText('Please confirm your new password')).toBeTruthy();
  });

  it('explains a link without its token', async () => {
    renderApp('/set-password');
    expect(await screen.findByText(/This link is incomplete/, {}, opts)).toBeTruthy();
  });
});
