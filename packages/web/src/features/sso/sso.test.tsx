import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SSO_MESSAGES } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vy\n-----END CERTIFICATE-----';

describe('Enterprise SSO settings: TLS', () => {
  it('saves StartTLS with a CA certificate, and names what is wrong', async () => {
    ctx.peer.org.sso = null;
    renderApp('/settings/account');
    const url = await screen.findByLabelText('URL', {}, opts);
    // the account page has other sections with a Save button of their own (the run duration limit)
    const form = url.closest('form')!;
    const save = () => within(form).getByRole('button', { name: 'Save' });
    const user = userEvent.setup();
    const fill = async (label: string, text: string) => {
      await user.click(screen.getByLabelText(label));
      await user.paste(text);
    };
    await user.click(url);
    await user.paste('ldaps://ldap.example.com');
    await fill('Base DN', 'dc=example,dc=com');
    await fill('Bind DN', 'cn=reader,dc=example,dc=com');
    await fill('Bind password', 'Reader!1');
    await user.click(screen.getByRole('switch', { name: /Use StartTLS/ }));
    const ca = screen.getByLabelText('CA certificate (PEM)');
    await fill('CA certificate (PEM)', 'not a certificate');
    await user.click(save());
    // checked in the browser with the contracts' schema
    expect(await screen.findByText(SSO_MESSAGES.caCertificate, {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('PUT', '/api/sso/settings')).toHaveLength(0);

    await user.clear(ca);
    await user.click(ca);
    await user.paste(PEM);
    await user.click(save());
    // the server refuses StartTLS on an ldaps:// URL
    expect((await screen.findByRole('alert', {}, opts)).textContent).toBe(SSO_MESSAGES.startTlsWithLdaps);

    await user.clear(screen.getByLabelText('URL'));
    await fill('URL', 'ldap://ldap.example.com:389');
    await user.click(save());
    expect(await screen.findByText('The SSO settings are saved.', {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('PUT', '/api/sso/settings').at(-1)!.body).toMatchObject({
      url: 'ldap://ldap.example.com:389',
      startTls: true,
      skipTlsVerify: false,
      caCertificate: PEM,
    });
    await waitFor(() => expect(ctx.peer.org.sso?.startTls).toBe(true));
    expect(within(document.body).getByRole('switch', { name: /Use StartTLS/ })).toHaveProperty(
      'checked',
      true,
    );
  });
});

describe('Enterprise SSO settings: the directory sign-in link', () => {
  it('shows the organisation’s link once sign-in with the directory is enabled, and not before', async () => {
    const settings = {
      configured: true,
      url: 'ldaps://ldap.example.com',
      bindDn: 'cn=reader,dc=example,dc=com',
      bindPassword: '',
      hasBindPassword: true,
      baseDn: 'dc=example,dc=com',
      userQuery: '(uid={username})',
      groupQuery: '(member={dn})',
      emailAttribute: 'mail',
      enabled: false,
      groupRoles: [],
      startTls: false,
      skipTlsVerify: false,
      caCertificate: '',
      updatedAt: '2025-05-01T10:00:00.000Z',
    };
    ctx.peer.org.sso = settings;
    const first = renderApp('/settings/account');
    await screen.findByLabelText('URL', {}, opts);
    expect(screen.queryByTestId('sso-directory-link')).toBeNull();
    first.unmount();
    ctx.peer.org.sso = { ...settings, enabled: true };
    renderApp('/settings/account');
    const field = (await screen.findByTestId('sso-directory-link-field', {}, opts)) as HTMLInputElement;
    expect(field.value).toBe(`${window.location.origin}/login?ldap=org-1`);
  });
});
