/** English for src/features/external-pipelines; assembled in ../en-app.ts. */

export const externalPipelines = {
  title: 'External pipelines',
  listTitle: 'External pipelines of this workspace',
  create: 'Add external pipeline',
  emptyTitle: 'No external pipelines yet',
  emptyBody:
    'An external pipeline is a Tekton pipeline kept in a git repository. Slipway reads it from there, and a run syncs it first.',
  loadError: 'The external pipelines could not be loaded.',
  columns: {
    name: 'Name',
    source: 'Repository and file',
    revision: 'Revision',
    version: 'Version',
    lastSynced: 'Last synced',
    state: 'Sync',
  },
  never: 'Never',
  inSync: 'Synced',
  syncFailed: 'Sync failed',
  syncing: 'Syncing…',
  syncNow: 'Sync now',
  actionsFor: 'Actions for external pipeline {{name}}',
  outcome: {
    changed: '{{name}} synced: version {{version}} is the new definition.',
    unchanged: '{{name}} synced: the definition has not changed (version {{version}}).',
    failed: '{{name}} could not be synced; version {{version}} stays the one that runs.',
  },
  confirmDelete: {
    title: 'Delete external pipeline {{name}}?',
    body: 'The pipeline, its versions and its runs are deleted. The git repository is not touched.',
  },
  form: {
    createTitle: 'Add external pipeline',
    editTitle: 'Edit external pipeline {{name}}',
    intro: 'The file is read from the repository and validated before anything is saved.',
    add: 'Add',
    name: 'Name',
    nameHelp: 'Letters or numbers at both ends; ",", "." and "-" are allowed.',
    description: 'Description',
    descriptionHelp: ' ',
    url: 'Repository URL',
    urlHelp: 'https://, ssh://, git@host:path, or file:// (a repository on this server).',
    revision: 'Revision',
    revisionHelp: 'A branch, tag or commit; main by default.',
    path: 'Path to the pipeline file',
    pathHelp: 'A .yaml, .yml or .json file, relative to the repository root.',
    secret: 'Secret',
    secretHelp:
      'For a private repository, a secret of this workspace: over HTTPS its "token" key; over SSH its "ssh-privatekey" key and, to check the host, "known_hosts".',
    noSecret: 'None (public repository)',
  },
} as const;
