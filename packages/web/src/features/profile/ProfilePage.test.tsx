import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { renderApp, storeSession } from '../../test/app';
import { initials } from './api';

let peer: ApiPeer;
let restoreFetch: () => void;
beforeAll(async () => {
  peer = await startApiPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
  const user = peer.addUser({ email: 'ada@example.com', password: 'Engine#1843' });
  storeSession(peer.signIn(user).token);
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

function section(name: string) {
  return screen.getByRole('region', { name });
}

describe('profile settings', () => {
  it('edits the name and shows it in the top bar', async () => {
    renderApp('/settings/profile');
    const first = await screen.findByLabelText('First name', {}, opts);
    expect((first as HTMLInputElement).value).toBe('Ada');
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    const user = userEvent.setup();
    await user.clear(first);
    await user.click(within(section('Personal details')).getByRole('button', { name: 'Save changes' }));
    expect(within(section('Personal details')).getByText('Name required')).toBeTruthy();
    await user.type(first, 'Augusta{Enter}');
    expect(await screen.findByText('Your details are saved.', {}, opts)).toBeTruthy();
    expect(peer.calls('PUT', '/api/profile').at(-1)!.body).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
    });
    expect(
      await screen.findByRole('button', { name: 'Account menu for Augusta Lovelace' }, opts),
    ).toBeTruthy();
  });

  it('changes the password with the messages of spec §5', async () => {
    renderApp('/settings/profile');
    await screen.findByLabelText('Current password', {}, opts);
    const form = section('Change password');
    const submit = within(form).getByRole('button', { name: 'Change password' });
    const user = userEvent.setup();
    await user.click(submit);
    expect(within(form).getByText('Please enter your current password')).toBeTruthy();
    expect(within(form).getByText('Please enter your new password')).toBeTruthy();
    expect(within(form).getByText('Please confirm your new password')).toBeTruthy();

    await user.type(screen.getByLabelText('Current password'), 'Engine#1843');
    await user.type(screen.getByLabelText('New password'), 'Difference#1822');
    await user.type(screen.getByLabelText('Confirm new password'), 'Difference#1823');
    await user.click(submit);
    expect(within(form).getByText('Passwords must match')).toBeTruthy();

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'Difference#1822{Enter}');
    expect(await within(form).findByText('Your password has been changed.', {}, opts)).toBeTruthy();
    expect(peer.users.get('ada@example.com')!.password).toBe('Difference#1822');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it("shows the server's answer to a wrong current password and stays signed in", async () => {
    const { store } = renderApp('/settings/profile');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Current password', {}, opts), 'Not#theone1');
    await user.type(screen.getByLabelText('New password'), 'Difference#1822');
    await user.type(screen.getByLabelText('Confirm new password'), 'Difference#1822{Enter}');
    expect((await within(section('Change password')).findByRole('alert', {}, opts)).textContent).toBe(
      'Invalid credentials',
    );
    expect(store.getState().auth.token).not.toBeNull();
  });
});

describe('initials', () => {
  it('takes the first letters of the names, else of the e-mail', () => {
    expect(initials({ firstName: 'ada', lastName: 'Lovelace', email: 'a@x.io' })).toBe('AL');
    expect(initials({ firstName: '', lastName: '', email: 'grace@x.io' })).toBe('G');
  });
});
