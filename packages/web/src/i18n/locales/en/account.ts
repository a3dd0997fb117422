/** English for src/features/account; assembled in ../en-app.ts. */

export const account = {
  title: 'Account management',
  organisationsTitle: 'Organisations',
  workspacesTitle: 'Workspaces',
  organisationsLoadError: 'Your organisations could not be loaded.',
  workspacesLoadError: 'The workspaces could not be loaded.',
  current: 'Current',
  switch: 'Switch',
  switchTo: 'Switch to {{name}}',
  ldapSession:
    "You signed in through your organisation's directory (LDAP), so this session stays in that organisation. Sign out, then sign in to the other organisation.",
  rename: 'Rename',
  renameNamed: 'Rename {{name}}',
  deleteNamed: 'Delete {{name}}',
  renameOrganisation: 'Rename organisation',
  renameWorkspace: 'Rename workspace',
  createWorkspace: 'Create workspace',
  create: 'Create',
  name: 'Name',
  yourRole: 'Your role: {{role}}',
  confirmDelete: {
    title: 'Delete workspace {{name}}?',
    body: 'Everything in this workspace is removed and its members lose access to it.',
  },
  runLimit: {
    title: 'Run duration limit',
    description:
      'No run of this organisation lasts longer than this, whatever its own timeout: a run that does ends as timed out, and queued runs get the limit when they start. Leave it empty for no limit.',
    field: 'Maximum run duration (minutes)',
    hint: 'From 1 to {{max}} minutes; empty for no limit',
    none: 'No limit',
    saved: 'The run duration limit is saved.',
  },
} as const;
