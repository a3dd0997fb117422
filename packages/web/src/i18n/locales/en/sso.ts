/** English for src/features/sso; assembled in ../en-app.ts. */

export const sso = {
  title: 'Enterprise SSO',
  loadError: 'The SSO settings could not be loaded.',
  enabled: 'Sign-in with the directory (LDAP) enabled',
  link: {
    label: 'Directory sign-in link',
    help: 'People of this organisation sign in with their directory username and password at this address.',
    copy: 'Copy link',
    copied: 'The link is copied.',
    selectToCopy: 'The link is selected: copy it with your keyboard.',
  },
  fields: {
    url: 'URL',
    baseDn: 'Base DN',
    bindDn: 'Bind DN',
    bindPassword: 'Bind password',
    userQuery: 'User query',
    groupQuery: 'Group query',
    emailAttribute: 'Email attribute',
    caCertificate: 'CA certificate (PEM)',
  },
  startTls: 'Use StartTLS (upgrade an ldap:// connection to TLS)',
  skipTlsVerify: 'Skip TLS verify (accept any certificate; for test directories only)',
  caCertificateHint:
    "The certificate of the directory's certificate authority. Leave it empty to trust the system's authorities.",
  bindPasswordSet: 'A password is set. Leave this empty to keep it.',
  bindPasswordUnset: 'No password is set yet.',
  groupRoles: 'Group → role mappings',
  group: 'Group',
  noWorkspace: 'No workspace',
  addGroup: 'Add mapping',
  removeGroup: 'Remove mapping',
  test: 'Test connection',
  saved: 'The SSO settings are saved.',
  retest: 'Fields have been modified. Test your integration again.',
} as const;
