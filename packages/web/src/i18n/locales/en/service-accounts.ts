/** English for src/features/service-accounts; assembled in ../en-app.ts. */

export const serviceAccountsPage = {
  title: 'Service accounts',
  listTitle: 'Tokens',
  loadError: 'The service accounts could not be loaded.',
  emptyTitle: 'No service accounts yet',
  emptyBody: 'Create one to let CI systems and scripts call Slipway with their own expiring token.',
  never: 'Never',
  revoke: 'Revoke',
  revokeNamed: 'Revoke {{name}}',
  columns: {
    name: 'Name',
    prefix: 'Token prefix',
    permissions: 'Project permissions',
    created: 'Created',
    expires: 'Expires',
    lastUsed: 'Last used',
    status: 'Status',
  },
  status: { active: 'Active', expired: 'Expired', revoked: 'Revoked' },
  create: {
    title: 'Create service account',
    expiry: 'Expiry date',
    permissions: 'Project permissions',
    addWorkspace: 'Add workspace',
    removeWorkspace: 'Remove workspace',
    submit: 'Create',
    workspacesInvalid: 'Give each workspace once, with a role.',
  },
  edit: {
    open: 'Permissions',
    named: 'Change the project permissions of {{name}}',
    title: 'Project permissions of {{name}}',
  },
  token: {
    title: 'Token for {{name}}',
    warning: 'Copy this token now. It will not be shown again.',
    label: 'Token',
    copy: 'Copy token',
    copied: 'The token is copied to the clipboard.',
    selectToCopy: 'The token is selected: press Ctrl+C (⌘C) to copy it.',
    done: 'I have copied it',
  },
  confirmRevoke: {
    title: 'Revoke {{name}}?',
    body: 'Its token stops working at once. This cannot be undone.',
  },
} as const;
